#include <simverify/framework/cli.hpp>
#include <simverify/framework/loader.hpp>
#include <simverify/framework/reporters/reporters.hpp>
#include <simverify/framework/runner.hpp>

#include "detail/text.hpp"
#include "gate.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <charconv>
#include <iostream>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;

constexpr int kReleasable = 0;
constexpr int kNotReleasable = 1;
constexpr int kInvalid = 2;

constexpr const char* kUsage = R"(usage:
  simverify run PATH... [--out DIR] [--level unit|integration|system] [--filter GLOB]
                [--fail-fast level|first|none] [--jobs N] [--shard I/N] [--timeout S]
                [--progress|--no-progress] [--verbose]
  simverify list PATH...                # requirements, levels, grid sizes; runs nothing
  simverify validate PATH...            # check files only
  simverify gate DIR [--coverage FILE]  # releasability decision with reasons (exit 0/1)

exit codes: 0 releasable; 1 ran, not releasable; 2 invalid input or usage (nothing run)
)";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Arguments {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;  // --name value
  std::vector<std::string> flags;                            // --name

  [[nodiscard]] std::optional<std::string> option(std::string_view name) const {
    for (const auto& [n, v] : options) {
      if (n == name) return v;
    }
    return std::nullopt;
  }
  [[nodiscard]] bool flag(std::string_view name) const {
    return std::find(flags.begin(), flags.end(), name) != flags.end();
  }
};

Arguments parse_arguments(std::span<char*> args, const std::vector<std::string>& with_value,
                          const std::vector<std::string>& without_value) {
  Arguments out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (!arg.starts_with("--")) {
      out.positional.push_back(arg);
      continue;
    }
    std::string value;
    bool has_inline_value = false;
    if (auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_inline_value = true;
    }
    const std::string name = arg.substr(2);
    if (std::find(with_value.begin(), with_value.end(), name) != with_value.end()) {
      if (!has_inline_value) {
        if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value", arg));
        value = args[++i];
      }
      out.options.emplace_back(name, value);
    } else if (std::find(without_value.begin(), without_value.end(), name) !=
               without_value.end()) {
      out.flags.push_back(name);
    } else {
      std::vector<std::string> known;
      for (const auto& n : with_value) known.push_back("--" + n);
      for (const auto& n : without_value) known.push_back("--" + n);
      throw UsageError(fmt::format("unknown option {}{}; known: {}", arg,
                                   detail::did_you_mean(arg, known), detail::join(known)));
    }
  }
  return out;
}

int parse_int(const std::string& text, const char* what) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) {
    throw UsageError(fmt::format("{} must be a whole number, got '{}'", what, text));
  }
  return value;
}

std::vector<fs::path> paths_of(const Arguments& a) {
  if (a.positional.empty()) throw UsageError("give at least one requirement file or folder");
  return {a.positional.begin(), a.positional.end()};
}

// Loads; on errors prints every diagnostic and returns nothing.
std::optional<LoadResult> load_or_report(const Arguments& a, const ComponentRegistry& registry) {
  LoadResult loaded = load_requirements(paths_of(a), registry);
  if (!loaded.ok()) {
    for (const auto& d : loaded.errors) fmt::print(std::cerr, "{}\n", d.str());
    fmt::print(std::cerr, "{} error(s); nothing was run\n", loaded.errors.size());
    return std::nullopt;
  }
  return loaded;
}

RunOptions run_options(const Arguments& a) {
  RunOptions o;
  if (auto level = a.option("level")) {
    o.level = parse_level(*level);
    if (!o.level) throw UsageError("--level must be unit, integration or system");
  }
  if (auto filter = a.option("filter")) o.filter = *filter;
  if (auto ff = a.option("fail-fast")) {
    if (*ff == "level") o.fail_fast = FailFast::level;
    else if (*ff == "first") o.fail_fast = FailFast::first;
    else if (*ff == "none") o.fail_fast = FailFast::none;
    else throw UsageError("--fail-fast must be level, first or none");
  }
  if (auto jobs = a.option("jobs")) {
    o.jobs = parse_int(*jobs, "--jobs");
    if (o.jobs < 1) throw UsageError("--jobs must be >= 1");
  }
  if (auto shard = a.option("shard")) {
    const auto slash = shard->find('/');
    if (slash == std::string::npos) throw UsageError("--shard must read I/N, e.g. 2/4");
    o.shard_index = parse_int(shard->substr(0, slash), "--shard I");
    o.shard_count = parse_int(shard->substr(slash + 1), "--shard N");
    if (o.shard_count < 1 || o.shard_index < 1 || o.shard_index > o.shard_count) {
      throw UsageError("--shard I/N needs 1 <= I <= N");
    }
  }
  if (auto timeout = a.option("timeout")) {
    try {
      o.timeout_seconds = std::stod(*timeout);
    } catch (const std::exception&) {
      throw UsageError("--timeout must be a number of seconds");
    }
    if (!(o.timeout_seconds > 0)) throw UsageError("--timeout must be > 0");
  }
  return o;
}

int command_run(std::span<char*> args, const ComponentRegistry& registry) {
  const Arguments a = parse_arguments(
      args, {"out", "level", "filter", "fail-fast", "jobs", "shard", "timeout"},
      {"progress", "no-progress", "verbose"});
  const RunOptions options = run_options(a);
  auto loaded = load_or_report(a, registry);
  if (!loaded) return kInvalid;
  const fs::path out = a.option("out").value_or("simverify-out");

  ListenerList listeners;
  ConsoleOptions console;
  console.progress_bar = a.flag("progress") || (!a.flag("no-progress") && ::isatty(1) != 0);
  console.verbose = a.flag("verbose");
  listeners.add(make_console_reporter(std::cout, console));
  listeners.add(make_json_reporter(out));
  listeners.add(make_junit_reporter(out / "junit.xml"));

  Runner runner(registry, options);
  const RunSummary summary = runner.run(loaded->requirements, listeners);
  fmt::print("results: {}\n", (out / "results.json").string());
  return summary.releasable ? kReleasable : kNotReleasable;
}

int command_list(std::span<char*> args, const ComponentRegistry& registry) {
  const Arguments a = parse_arguments(args, {}, {});
  auto loaded = load_or_report(a, registry);
  if (!loaded) return kInvalid;
  fmt::print("{:<12} {:<36} {:<14} {:>8}  {}\n", "level", "id", "component", "points", "title");
  std::size_t total = 0;
  for (Level level : {Level::unit, Level::integration, Level::system}) {
    for (const auto& r : loaded->requirements) {
      if (r.level != level) continue;
      fmt::print("{:<12} {:<36} {:<14} {:>8}  {}\n", to_string(level), r.id, r.component,
                 r.conditions.size(), r.title);
      total += r.conditions.size();
    }
  }
  fmt::print("{} requirement(s), {} grid point(s) in {} file(s)\n", loaded->requirements.size(),
             total, loaded->files.size());
  return kReleasable;
}

int command_validate(std::span<char*> args, const ComponentRegistry& registry) {
  const Arguments a = parse_arguments(args, {}, {});
  auto loaded = load_or_report(a, registry);
  if (!loaded) return kInvalid;
  fmt::print("{} file(s), {} requirement(s): valid\n", loaded->files.size(),
             loaded->requirements.size());
  return kReleasable;
}

int command_gate(std::span<char*> args) {
  const Arguments a = parse_arguments(args, {"coverage", "config"}, {});
  if (a.positional.size() != 1) throw UsageError("gate needs exactly one results folder");
  const GateDecision decision =
      decide_gate(a.positional.front(), a.option("coverage"), a.option("config"));
  for (const auto& reason : decision.reasons) fmt::print("  - {}\n", reason);
  fmt::print("gate: {}\n", decision.releasable ? "RELEASABLE" : "NOT RELEASABLE");
  return decision.releasable ? kReleasable : kNotReleasable;
}

}  // namespace

int run_cli(std::span<char*> args, const ComponentRegistry& registry) {
  if (args.size() < 2) {
    fmt::print(std::cerr, "{}", kUsage);
    return kInvalid;
  }
  const std::string command = args[1];
  const auto rest = args.subspan(2);
  try {
    if (command == "run") return command_run(rest, registry);
    if (command == "list") return command_list(rest, registry);
    if (command == "validate") return command_validate(rest, registry);
    if (command == "gate") return command_gate(rest);
    if (command == "--help" || command == "-h" || command == "help") {
      fmt::print("{}", kUsage);
      return kReleasable;
    }
    const std::vector<std::string> known = {"run", "list", "validate", "gate"};
    throw UsageError(fmt::format("unknown command '{}'{}", command,
                                 detail::did_you_mean(command, known)));
  } catch (const UsageError& e) {
    fmt::print(std::cerr, "simverify: {}\n{}", e.what(), kUsage);
    return kInvalid;
  } catch (const std::exception& e) {
    fmt::print(std::cerr, "simverify: {}\n", e.what());
    return kInvalid;
  }
}

}  // namespace simverify::framework
