#include "input_conditions.hpp"

#include <simverify/core/fnv1a.hpp>
#include <simverify/core/text.hpp>
#include <simverify/simulation/analysis/monte_carlo.hpp>

#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace simverify::components {
namespace {

using framework::Value;

std::string located(const framework::SourceLocation& where, const std::string& message) {
  return where.line > 0 ? where.str() + ": " + message : message;
}

[[noreturn]] void fail(const framework::SourceLocation& where, const std::string& message) {
  throw InputError(where, "u: " + message);
}

[[noreturn]] void fail(const Value& where, const std::string& message) {
  fail(where.location, message);
}

// The keys a signal takes; anything else is a typo worth reporting.
void check_keys(const Value& args, const std::string& signal,
                const std::vector<std::string>& allowed) {
  if (!args.is_map()) fail(args, signal + " expects a mapping of its arguments");
  for (const auto& [key, value] : args.as_map()) {
    bool known = false;
    for (const auto& a : allowed) known = known || a == key;
    if (!known) {
      fail(value.key_location(), "unknown argument '" + key + "' of " + signal +
                                     core::did_you_mean(key, allowed) +
                                     "; known: " + core::join(allowed));
    }
    // No signal argument is a list: one written as a list means a sweep, which is an axis.
    if (value.is_list() && value.as_list().size() >= 2) {
      // Captures `name`, not the binding: clang 14 (the fuzz preset) cannot capture one.
      const std::string& name = key;
      const auto run = [&](const Value& v) {
        return "{" + signal + ": {" + name + ": " + v.str() + ", ...}}";
      };
      fail(value, signal + "." + key + " is a list, and a list inside a value is not an axis: " +
                      "write one whole signal per run, u: [" + run(value.as_list()[0]) + ", " +
                      run(value.as_list()[1]) + "]");
    }
  }
}

double number(const Value& args, const std::string& signal, const char* key,
              std::optional<double> fallback = std::nullopt) {
  const Value* v = args.find(key);
  if (v == nullptr) {
    if (fallback) return *fallback;
    fail(args, signal + " needs '" + key + "'");
  }
  if (!v->is_number()) fail(*v, signal + "." + key + " must be a number");
  return v->as_number();
}

std::uint64_t whole_seed(const Value& args, const std::string& signal, std::uint64_t default_seed) {
  const double seed = number(args, signal, "seed", static_cast<double>(default_seed));
  if (seed < 0 || std::floor(seed) != seed || seed >= 0x1p64) {
    fail(args, signal + ".seed must be a whole number >= 0");
  }
  return static_cast<std::uint64_t>(seed);
}

std::string resolve(const Value& file) {
  if (!file.is_string()) fail(file, "table.file must be a path");
  return path_relative_to_file(file).string();
}

simulation::InputPtr signal(const std::string& name, const Value& args, std::uint64_t default_seed,
                            const InputSource& source) {
  if (name == "constant") {
    if (!args.is_number()) fail(args, "constant expects a number");
    return simulation::constant_input(args.as_number());
  }
  if (name == "step") {
    check_keys(args, name, {"at", "from", "to"});
    return simulation::step_input(number(args, name, "at"), number(args, name, "from", 0.0),
                                  number(args, name, "to"));
  }
  if (name == "ramp") {
    check_keys(args, name, {"at", "slope"});
    return simulation::ramp_input(number(args, name, "at", 0.0), number(args, name, "slope"));
  }
  if (name == "sine") {
    check_keys(args, name, {"amplitude", "frequency", "phase"});
    return simulation::sine_input(number(args, name, "amplitude"), number(args, name, "frequency"),
                                  number(args, name, "phase", 0.0));
  }
  if (name == "chirp") {
    check_keys(args, name, {"amplitude", "f0", "f1", "duration"});
    return simulation::chirp_input(number(args, name, "amplitude"), number(args, name, "f0"),
                                   number(args, name, "f1"), number(args, name, "duration"));
  }
  if (name == "table") {
    check_keys(args, name, {"file", "column"});
    const Value* file = args.find("file");
    const Value* column = args.find("column");
    if (file == nullptr || column == nullptr || !column->is_string()) {
      fail(args, "table needs 'file' and a 'column' name");
    }
    return simulation::table_input(resolve(*file), column->as_string());
  }
  if (name == "road") {
    check_keys(args, name, {"class", "speed", "seed"});
    const Value* cls = args.find("class");
    if (cls == nullptr || !cls->is_string() || cls->as_string().size() != 1) {
      fail(args, "road needs 'class', one letter A..H");
    }
    return simulation::road_input(cls->as_string()[0], number(args, name, "speed"),
                                  whole_seed(args, name, default_seed));
  }
  if (name == "noise") {
    check_keys(args, name, {"mean", "std", "seed", "hold"});
    return simulation::noise_input(number(args, name, "mean", 0.0), number(args, name, "std"),
                                   number(args, name, "hold"),
                                   noise_stream(source, whole_seed(args, name, default_seed)));
  }
  const std::vector<std::string> signals = {"constant", "step",  "ramp", "sine",
                                            "chirp",    "table", "road", "noise"};
  fail(args, "unknown input signal '" + name + "'" + core::did_you_mean(name, signals) +
                 "; known: " + core::join(signals));
}

}  // namespace

InputError::InputError(framework::SourceLocation where, const std::string& message)
    : std::invalid_argument(located(where, message)), where_(std::move(where)), message_(message) {}

std::filesystem::path path_relative_to_file(const Value& path) {
  if (!path.is_string()) {
    throw std::invalid_argument(std::string("expected a path, found ") + path.type_name());
  }
  std::filesystem::path resolved = path.as_string();
  if (resolved.is_relative() && !path.location.file.empty()) {
    resolved = std::filesystem::path(path.location.file).parent_path() / resolved;
  }
  return resolved;
}

std::uint64_t noise_stream(const InputSource& source, std::uint64_t seed) {
  using simulation::analysis::stream_seed;
  return stream_seed(stream_seed(core::fnv1a(source.requirement), core::fnv1a(source.axis)), seed);
}

std::optional<double> noise_hold(const Value& u) {
  const Value* noise = u.is_map() ? u.find("noise") : nullptr;
  const Value* hold = noise != nullptr && noise->is_map() ? noise->find("hold") : nullptr;
  if (hold == nullptr || !hold->is_number()) return std::nullopt;
  return hold->as_number();
}

simulation::InputPtr input_from(const Value& u, std::uint64_t default_seed,
                                const InputSource& source) {
  if (u.is_number()) return simulation::constant_input(u.as_number());
  if (!u.is_map()) fail(u, "expected a number or a signal mapping such as {constant: 1}");
  simulation::InputPtr result;
  const Value* hold = nullptr;
  for (const auto& [key, value] : u.as_map()) {
    if (key == "hold") {
      hold = &value;
      continue;
    }
    if (result) fail(value, "one signal per input; found a second one, '" + key + "'");
    try {
      result = signal(key, value, default_seed, source);
    } catch (const InputError&) {
      throw;
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      // The factory's message, with the YAML location; it may name the signal itself.
      fail(value, what.starts_with(key + ": ") ? what : key + ": " + what);
    }
  }
  if (!result) fail(u, "no signal given (only 'hold')");
  if (hold != nullptr) {
    if (u.find("noise") != nullptr) {
      fail(*hold, "noise is held over its own 'hold' (inside noise: {...}), not an outer one");
    }
    if (!hold->is_number() || !(hold->as_number() > 0.0)) {
      fail(*hold, "hold must be a positive sample time");
    }
    result = simulation::hold(result, hold->as_number());
  }
  return result;
}

}  // namespace simverify::components
