// The promises come from the format page and loader.hpp: the loader never throws, every
// error names its file with a line and column, and a requirement is loaded only when it is
// valid as a whole (an id of [A-Z0-9._-]+, a registered component, a grid with points, a
// measure and a threshold).
#include "loader_fuzz_target.hpp"
#include "libfuzzer_entry.hpp"

#include <simverify/components/components.hpp>
#include <simverify/framework/loader.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <limits>
#include <regex>

namespace simverify::fuzzing {
namespace {

namespace fw = simverify::framework;

const fw::ComponentRegistry& registry() {
  static const fw::ComponentRegistry instance = [] {
    fw::ComponentRegistry r;
    components::register_builtin_components(r);
    return r;
  }();
  return instance;
}

// `lines`: how many lines the input has.
std::optional<std::string> check_diagnostic(const fw::Diagnostic& d, int lines,
                                            const std::string& file_name) {
  if (d.message.empty()) return fmt::format("an error without a message at {}", d.location.str());
  if (d.location.file != file_name) {
    // Only a reference CSV the document named may be blamed instead of the document.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(d.location.file, ec)) {
      return fmt::format("error names '{}', neither the input nor a file: {}", d.location.file,
                         d.str());
    }
    if (d.location.line < 1 || d.location.column < 1) {
      return fmt::format("error in a reference file without line and column: {}", d.str());
    }
    return std::nullopt;
  }
  if (d.location.line < 1 || d.location.column < 1 || d.location.line > lines + 1) {
    return fmt::format("error outside the input's {} line(s): {}", lines, d.str());
  }
  return std::nullopt;
}

std::optional<std::string> check_requirement(const fw::Requirement& r) {
  static const std::regex kIdPattern("[A-Z0-9._-]+");
  if (!std::regex_match(r.id, kIdPattern)) {
    return fmt::format("loaded a requirement with the invalid id '{}'", r.id);
  }
  if (registry().find(r.component) == nullptr) {
    return fmt::format("{}: loaded with the unknown component '{}'", r.id, r.component);
  }
  if (r.quality.measure.empty()) return fmt::format("{}: loaded without a measure", r.id);
  if (!std::isfinite(r.quality.threshold.bound)) {
    return fmt::format("{}: loaded with a non-finite threshold", r.id);
  }
  // The grid's size is the product of its groups' sizes: each must be >= 1 and the product
  // must not wrap around, or the plan would silently run a different number of points.
  std::size_t points = 1;
  for (const auto& group : r.conditions.groups()) {
    if (group.size() == 0) return fmt::format("{}: loaded with an empty condition", r.id);
    for (const auto& axis : group.axes) {
      if (axis.values.size() != group.size()) {
        return fmt::format("{}: zipped condition '{}' has {} values, its group {}", r.id, axis.name,
                           axis.values.size(), group.size());
      }
    }
    if (points > std::numeric_limits<std::size_t>::max() / group.size()) {
      return fmt::format("{}: loaded with a grid of more than 2^64 points", r.id);
    }
    points *= group.size();
  }
  if (r.conditions.size() != points || points == 0) {
    return fmt::format("{}: grid size {} but its groups multiply to {}", r.id, r.conditions.size(),
                       points);
  }
  if (r.quality.aggregate) {
    for (const auto& axis : r.quality.aggregate->over) {
      if (r.conditions.find_axis(axis) == nullptr) {
        return fmt::format("{}: aggregates over '{}', which is not a condition", r.id, axis);
      }
    }
  }
  return std::nullopt;
}

}  // namespace

const std::string& default_file_name() {
  static const std::string name = SIMVERIFY_SOURCE_DIR "/testsuites/malformed/fuzz-input.yaml";
  return name;
}

std::optional<std::string> check_loader(std::string_view text, const std::string& file_name) {
  fw::LoadResult loaded;
  try {
    fw::parse_requirements(std::string(text), file_name, registry(), loaded);
  } catch (const std::exception& e) {
    return fmt::format("an exception escaped the loader: {}", e.what());
  } catch (...) {
    return std::string("an exception of unknown type escaped the loader");
  }
  const auto lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  for (const auto& d : loaded.errors) {
    if (auto broken = check_diagnostic(d, lines, file_name)) return broken;
  }
  for (const auto& r : loaded.requirements) {
    if (auto broken = check_requirement(r)) return broken;
  }
  return std::nullopt;
}

}  // namespace simverify::fuzzing

SIMVERIFY_LIBFUZZER_ENTRY(simverify::fuzzing::check_loader, simverify::fuzzing::default_file_name(),
                          "loader")
