#include <simverify/framework/cli.hpp>

#include <simverify/core/interrupt.hpp>
#include <simverify/framework/loader.hpp>
#include <simverify/framework/reporters/reporters.hpp>
#include <simverify/framework/runner.hpp>

#include "command_help.hpp"
#include "commands.hpp"
#include "detail/arguments.hpp"
#include "detail/encoding.hpp"
#include "detail/interrupt_guard.hpp"
#include "detail/text.hpp"
#include "project_file.hpp"
#include "reporters/cost_memory.hpp"
#include "results_file.hpp"
#include "results_folder.hpp"
#include "selection.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using detail::Arguments;
using detail::kInvalid;
using detail::kNotReleasable;
using detail::kReleasable;
using detail::parse_arguments;
using detail::parse_int;
using detail::UsageError;

constexpr const char* kUsage = R"(usage:
  simverify run PATH... [--out DIR] [--level unit|integration|system] [--filter GLOB]
                [--fail-fast level|first|none] [--jobs N] [--shard I/N] [--timeout S]
                [--isolation process|none] [--series quality|all|none]
                [--progress|--no-progress] [--verbose] [--junit-points]
  simverify merge DIR... --out DIR      # combine shard results into one verdict
  simverify list PATH... [--level L] [--filter GLOB]  # requirements, grid sizes; runs nothing
  simverify validate PATH...            # check files only
  simverify gate DIR [--coverage FILE] [--config FILE]  # releasability decision (exit 0/1)
  simverify report DIR [--coverage FILE] --out SITE     # static HTML site from results
  simverify diff BASE NEW [--json] [--points]   # changes between two runs (exit 1: regressed)
  simverify COMMAND --help              # that command's options
  simverify --version
  (`--` ends the options: what follows are paths, e.g. `simverify gate -- -h` reads folder -h)

exit codes: 0 releasable; 1 ran, not releasable; 2 invalid input or usage (nothing run);
  diff: 1 when a requirement passed in BASE and failed or erred in NEW, else 0
)";

// Each requirement's seconds per grid point in the results already in `out` (an earlier run
// into the same folder): the prior of the progress bar's ETA. Advisory only: results that
// are missing, unreadable or from a skipped requirement give no prior, never an error.
std::map<std::string, double> earlier_costs(const fs::path& out) {
  std::map<std::string, double> costs;
  if (!is_results_folder(out)) return costs;
  try {
    const ResultsJson doc = read_results(out);
    for (const auto& r : doc.at("requirements")) {
      const auto points = r.value("point_count", std::size_t{0});
      const double seconds = r.value("seconds", 0.0);
      if (points > 0 && seconds >= 0 && r.value("status", "") != "skipped") {
        costs[r.at("id").get<std::string>()] = seconds / static_cast<double>(points);
      }
    }
  } catch (const std::exception&) {
    costs.clear();
  }
  return costs;
}

std::vector<fs::path> paths_of(const Arguments& a) {
  if (a.positional.empty()) throw UsageError("give at least one requirement file or folder");
  return {a.positional.begin(), a.positional.end()};
}

// Ctrl-C, SIGTERM or SIGHUP while the requirements load (unpacking an FMU stops at once):
// nothing was run and nothing written (exit 2).
struct InterruptedWhileLoading : std::runtime_error {
  InterruptedWhileLoading()
      : std::runtime_error(
            "interrupted by a signal while loading the requirements; nothing "
            "was run") {}
};

// Loads; on errors prints every diagnostic and returns nothing. `interrupt` is installed
// before: a signal during loading (which can unpack gigabytes of FMUs) is honoured, not lost
// or left to kill the process with a half-unpacked FMU in TMPDIR.
std::optional<LoadResult> load_or_report(const Arguments& a, const ComponentRegistry& registry,
                                         const detail::InterruptGuard& interrupt) {
  LoadResult loaded = load_requirements(paths_of(a), registry);
  if (interrupt.flag().load()) throw InterruptedWhileLoading();
  if (!loaded.ok()) {
    for (const auto& d : loaded.errors) fmt::print(std::cerr, "{}\n", d.str());
    fmt::print(std::cerr, "{} error(s); nothing was run\n", loaded.errors.size());
    return std::nullopt;
  }
  return loaded;
}

// --level and --filter select some requirement; else says why none (exit 2, nothing run).
bool selects_some(const LoadResult& loaded, const std::optional<Level>& level,
                  std::string_view filter) {
  const auto empty = empty_selection(loaded.requirements, level, filter);
  if (empty) {
    fmt::print(std::cerr, "simverify: {}\nnothing was run\n", detail::terminal_text(*empty));
  }
  return !empty;
}

RunOptions run_options(const Arguments& a) {
  RunOptions o;
  if (auto level = a.option("level")) {
    o.level = parse_level(*level);
    if (!o.level) throw UsageError("--level must be unit, integration or system");
  }
  if (auto filter = a.option("filter")) o.filter = *filter;
  if (auto ff = a.option("fail-fast")) {
    if (*ff == "level") {
      o.fail_fast = FailFast::level;
    } else if (*ff == "first") {
      o.fail_fast = FailFast::first;
    } else if (*ff == "none") {
      o.fail_fast = FailFast::none;
    } else {
      throw UsageError("--fail-fast must be level, first or none");
    }
  }
  if (auto jobs = a.option("jobs")) o.jobs = parse_int(*jobs, "--jobs", 1, kMaxJobs);
  if (auto shard = a.option("shard")) {
    const auto slash = shard->find('/');
    if (slash == std::string::npos) throw UsageError("--shard must read I/N, e.g. 2/4");
    o.shard_count = parse_int(shard->substr(slash + 1), "--shard N", 1);
    o.shard_index = parse_int(shard->substr(0, slash), "--shard I", 1, o.shard_count);
  }
  if (auto timeout = a.option("timeout")) {
    o.timeout_seconds =
        detail::parse_number(*timeout, "--timeout", kMinTimeoutSeconds, kMaxTimeoutSeconds);
  }
  if (auto isolation = a.option("isolation")) {
    if (*isolation == "process") {
      o.isolation = Isolation::process;
    } else if (*isolation == "none") {
      o.isolation = Isolation::none;
    } else {
      throw UsageError("--isolation must be process or none");
    }
  }
  return o;
}

SeriesOutput series_output(const Arguments& a) {
  const auto series = a.option("series");
  if (!series || *series == "quality") return SeriesOutput::quality;
  if (*series == "all") return SeriesOutput::all;
  if (*series == "none") return SeriesOutput::none;
  throw UsageError("--series must be quality, all or none");
}

int command_run(std::span<char*> args, const ComponentRegistry& registry) {
  const Arguments a = parse_arguments(
      args,
      {"out", "level", "filter", "fail-fast", "jobs", "shard", "timeout", "isolation", "series"},
      {"progress", "no-progress", "verbose", "junit-points"});
  RunOptions options = run_options(a);
  // The gate settings beside the requirements (a folder's simverify.yaml), recorded in the
  // results so `gate` and `report` use the same ones wherever they run.
  for (const auto& path : a.positional) {
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec);
    options.sources.push_back((ec ? fs::path(path) : absolute).lexically_normal().string());
  }
  if (const auto project = project_file_beside(a.positional)) options.project_file = *project;
  const SeriesOutput series = series_output(a);
  options.series = series;
  // Ctrl-C / SIGTERM: loading stops, or the runner stops between points, kills its workers
  // and the reporters still write valid files marked "complete": false. A second signal ends
  // it at once.
  const detail::InterruptGuard interrupt_guard;
  options.stop = &interrupt_guard.flag();
  auto loaded = load_or_report(a, registry, interrupt_guard);
  if (!loaded) return kInvalid;
  // Threads the runner abandoned in points that did not end after Ctrl-C (--isolation none)
  // may still use the requirements: they are kept, and run_cli ends the process without
  // destroying them.
  struct KeepIfAbandoned {
    std::optional<LoadResult>& loaded;
    ~KeepIfAbandoned() {
      if (!core::threads_abandoned()) return;
      try {
        // Moved to a heap object never freed: the vectors keep their buffers, so the
        // requirements an abandoned thread refers to stay where they are.
        static_cast<void>(std::make_unique<LoadResult>(std::move(*loaded)).release());
      } catch (...) {
        std::_Exit(1);  // no memory to keep them: end now rather than free what a thread uses
      }
    }
  } const keep{loaded};
  // The verdict applies the gate's rules, the project file's levels included; a project file the
  // gate would refuse is refused here, before anything runs.
  if (!options.project_file.empty()) {
    auto project = load_project_file(options.project_file);
    if (!project.ok()) {
      for (const auto& d : project.errors) fmt::print(std::cerr, "{}\n", d.str());
      fmt::print(std::cerr, "{} error(s); nothing was run\n", project.errors.size());
      return kInvalid;
    }
    options.required_levels = project.project.levels;
  }
  if (!selects_some(*loaded, options.level, options.filter)) return kInvalid;
  // A level without requirements passes: the (empty) results are written as for any run.
  const auto nothing_at_level = empty_level(loaded->requirements, options.level, options.filter);
  const fs::path out = a.option("out").value_or("simverify-out");
  // Ours alone, one writer, swapped in whole at the end (results_folder.hpp).
  ResultsFolder folder(out);
  options.temp_root = folder.staging();

  ListenerList listeners;
  ConsoleOptions console;
  console.progress_bar = a.flag("progress") || (!a.flag("no-progress") && ::isatty(1) != 0);
  console.verbose = a.flag("verbose");
  // The ETA's priors: what each requirement cost on this machine before, the costs of an
  // earlier run into the same folder taking precedence (the same options, most likely).
  const auto memory = console.progress_bar ? cost_memory_file() : std::nullopt;
  if (console.progress_bar) console.earlier_seconds_per_point = earlier_costs(out);
  if (memory)
    console.earlier_seconds_per_point.merge(remembered_costs(*memory, loaded->requirements));
  // Colour only for a person at a terminal: https://no-color.org, and never in CI logs.
  const char* no_colour = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  console.colour = ::isatty(1) != 0 && (no_colour == nullptr || *no_colour == '\0') &&
                   std::getenv("CI") == nullptr && !(term && std::string_view(term) == "dumb");
  listeners.add(make_json_reporter(folder.staging(), series, &registry));
  listeners.add(make_junit_reporter(folder.staging() / "junit.xml", a.flag("junit-points")));
  // The counts and the verdict wait until the results are in place (commit() below). An
  // empty level has no verdict to print ("0 passed ... NOT RELEASABLE" would contradict its
  // exit 0).
  std::ostringstream closing;
  console.summary = &closing;
  if (!nothing_at_level) listeners.add(make_console_reporter(std::cout, console));
  if (memory) listeners.add(make_cost_recorder(*memory));

  Runner runner(registry, options);
  RunSummary summary;
  try {
    summary = runner.run(loaded->requirements, listeners);
    folder.commit();
    std::cout << closing.str();
  } catch (const std::exception& e) {
    // Exit 2 means nothing trustworthy was written: the staging folder goes, `out` stays.
    fmt::print(std::cerr, "simverify: {}\nnothing was written; {} is as it was\n",
               detail::terminal_text(e.what()), detail::terminal_text(out.string()));
    return kInvalid;
  }
  if (!summary.complete) {
    fmt::print(std::cerr, "simverify: interrupted; results are marked \"complete\": false\n");
  }
  if (nothing_at_level && summary.complete) {
    fmt::print(std::cout, "simverify: {}: nothing to run, the level passes\n",
               detail::terminal_text(*nothing_at_level));
    fmt::print(std::cout, "results: {}\n", detail::terminal_text((out / "results.json").string()));
    return kReleasable;
  }
  fmt::print(std::cout, "results: {}\n", detail::terminal_text((out / "results.json").string()));
  if (options.shard_count > 1) {
    // A shard's exit code says only whether its share had failures, so CI shard jobs stay
    // usable; the verdict is merge's.
    const bool clean = summary.complete && summary.failed == 0 && summary.errors == 0;
    return clean ? kReleasable : kNotReleasable;
  }
  // A narrowed run whose selection passed exits 0 (a CI job per level must pass) though it is
  // not releasable: its console says "PASSED for the requirements ... selects".
  const bool narrowed = options.level.has_value() || !options.filter.empty();
  const bool selection_passed = summary.complete && summary.passed > 0 && summary.failed == 0 &&
                                summary.errors == 0 && summary.skipped == 0;
  return summary.releasable || (narrowed && selection_passed) ? kReleasable : kNotReleasable;
}

int command_list(std::span<char*> args, const ComponentRegistry& registry) {
  const Arguments a = parse_arguments(args, {"level", "filter"}, {});
  const RunOptions options = run_options(a);
  const detail::InterruptGuard interrupt_guard;
  auto loaded = load_or_report(a, registry, interrupt_guard);
  if (!loaded) return kInvalid;
  if (!selects_some(*loaded, options.level, options.filter)) return kInvalid;
  fmt::print("{:<12} {:<36} {:<14} {:>8}  {}\n", "level", "id", "component", "points", "title");
  std::size_t total = 0, listed = 0;
  for (Level level : {Level::unit, Level::integration, Level::system}) {
    for (const auto& r : loaded->requirements) {
      if (r.level != level || !is_selected(r, options.level, options.filter)) continue;
      fmt::print("{:<12} {:<36} {:<14} {:>8}  {}\n", to_string(level), r.id, r.component,
                 r.conditions.size(), r.title);
      total += r.conditions.size();
      ++listed;
    }
  }
  fmt::print("{} requirement(s), {} grid point(s) in {} file(s)\n", listed, total,
             loaded->files.size());
  if (const auto none = empty_level(loaded->requirements, options.level, options.filter)) {
    fmt::print("{}\n", detail::terminal_text(*none));
  }
  return kReleasable;
}

int command_validate(std::span<char*> args, const ComponentRegistry& registry) {
  const Arguments a = parse_arguments(args, {}, {});
  const detail::InterruptGuard interrupt_guard;
  auto loaded = load_or_report(a, registry, interrupt_guard);
  if (!loaded) return kInvalid;
  fmt::print("{} file(s), {} requirement(s): valid\n", loaded->files.size(),
             loaded->requirements.size());
  return kReleasable;
}

#ifndef SIMVERIFY_VERSION
#error "the build defines SIMVERIFY_VERSION (the project's version)"
#endif

// The overview with the executable's extra commands listed before the per-command help line.
std::string usage_with(std::span<const ExtraCommand> extra) {
  std::string usage = kUsage;
  std::string lines;
  for (const auto& c : extra) lines += fmt::format("  {}\n", c.overview);
  usage.insert(usage.find("  simverify COMMAND --help"), lines);
  return usage;
}

int dispatch(std::span<char*> args, const ComponentRegistry& registry, std::string_view commit,
             std::span<const ExtraCommand> extra, std::string_view package_reports_dir) {
  const std::string usage = usage_with(extra);
  if (args.size() < 2) {
    fmt::print(std::cerr, "{}", usage);
    return kInvalid;
  }
  const std::string command = args[1];
  const auto rest = args.subspan(2);
  for (const auto& c : extra) {
    if (command == c.name) return c.run(rest);
    if (command == "help" && rest.size() == 1 && std::string_view(rest[0]) == c.name) {
      static char help_flag[] = "--help";
      char* const help_args[] = {help_flag};
      return c.run(help_args);
    }
  }
  if (command == "--version") {
    fmt::print("simverify {} (commit {})\n", SIMVERIFY_VERSION,
               commit.empty() ? std::string_view("unknown") : commit);
    return kReleasable;
  }
  try {
    // `simverify help run` and `simverify run --help` alike.
    const bool help_command = command == "help" && !rest.empty();
    const std::string topic = help_command ? std::string(rest[0]) : command;
    const auto help = command_help(topic);
    if (help && help_command) {
      fmt::print("{}", *help);
      return kReleasable;
    }
    try {
      if (command == "run") return command_run(rest, registry);
      if (command == "list") return command_list(rest, registry);
      if (command == "validate") return command_validate(rest, registry);
      if (command == "gate") return command_gate(rest, registry);
      if (command == "merge") return command_merge(rest);
      if (command == "report") return command_report(rest, registry, package_reports_dir);
      if (command == "diff") return command_diff(rest);
    } catch (const detail::HelpRequested&) {  // the command's parser met `-h` as an option
      fmt::print("{}", help ? *help : std::string_view(usage));
      return kReleasable;
    }
    if (command == "--help" || command == "-h" || (command == "help" && rest.empty())) {
      fmt::print("{}", usage);
      return kReleasable;
    }
    std::vector<std::string> known = {"run", "list", "validate", "gate", "diff", "merge", "report"};
    for (const auto& c : extra) known.emplace_back(c.name);
    throw UsageError(
        fmt::format("unknown command '{}'{}", topic, detail::did_you_mean(topic, known)));
  } catch (const UsageError& e) {
    fmt::print(std::cerr, "simverify: {}\n{}", detail::terminal_text(e.what()), usage);
    return kInvalid;
  } catch (const InterruptedWhileLoading& e) {
    fmt::print(std::cerr, "simverify: {}\n", e.what());
    return kInvalid;
  } catch (const DiagnosticsError& e) {
    for (const auto& d : e.diagnostics()) {
      fmt::print(std::cerr, "simverify: {}\n", detail::terminal_text(d.str()));
    }
    return kInvalid;
  } catch (const std::system_error& e) {
    // fmt::print throws when the standard output cannot take what a command prints.
    if (std::ferror(stdout) != 0) {
      fmt::print(std::cerr, "simverify: cannot write the standard output: {}\n",
                 e.code().message());
    } else {
      fmt::print(std::cerr, "simverify: {}\n", detail::terminal_text(e.what()));
    }
    return kInvalid;
  } catch (const std::exception& e) {
    // Messages quote what files hold (a tampered results.json's ids and statuses).
    fmt::print(std::cerr, "simverify: {}\n", detail::terminal_text(e.what()));
    return kInvalid;
  }
}

// run, merge, gate and report write their files and decide before the console's last lines;
// for the other commands the console is the product.
bool files_are_the_product(std::string_view command) {
  return command == "run" || command == "merge" || command == "gate" || command == "report";
}

// A standard stream the caller closed (`simverify run ... >&-`) would lend its number to the
// next file opened, and console text would land in that file: /dev/null holds the number.
// Returns whether the standard output was closed.
bool hold_closed_standard_streams() {
  bool stdout_closed = false;
  for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    stdout_closed = stdout_closed || fd == STDOUT_FILENO;
    const int held = ::open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
    if (held >= 0 && held != fd) {
      ::dup2(held, fd);
      ::close(held);
    }
  }
  return stdout_closed;
}

// Output that never arrived must not pass for success (`simverify list > /dev/full`), as
// coreutils' close_stdout decides; a command whose files are the product keeps its exit code.
int checked_stdout(std::string_view command, int code, bool stdout_closed) {
  if (code == kInvalid) return code;  // an error was reported; exit 2 says enough
  errno = 0;
  const bool failed =
      stdout_closed || std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout.good();
  if (!failed) return code;
  const std::string reason = stdout_closed ? "it is closed"
                             : errno != 0  ? std::strerror(errno)
                                           : "a write failed";
  const bool keeps_code = files_are_the_product(command);
  fmt::print(std::cerr, "simverify: cannot write the standard output: {}{}\n", reason,
             keeps_code ? "; the exit code stands for the files written" : "");
  return keeps_code ? code : kInvalid;
}

}  // namespace

namespace {
bool g_stdout_closed = false;  // set once, before any command runs
}  // namespace

bool standard_output_closed() {
  return g_stdout_closed;
}

int run_cli(std::span<char*> args, const ComponentRegistry& registry, std::string_view commit,
            std::span<const ExtraCommand> extra, std::string_view package_reports_dir) {
  const bool stdout_closed = hold_closed_standard_streams();
  g_stdout_closed = stdout_closed;
  const std::string_view command = args.size() < 2 ? std::string_view() : args[1];
  // A closed pipe (`simverify run ... | head`) must not kill a run half-way or turn its
  // verdict into 141: the console is lost (checked_stdout says so), the files and the exit
  // code are not. Worker processes and the programs they start set SIGPIPE back to default.
  if (files_are_the_product(command)) std::signal(SIGPIPE, SIG_IGN);
  const int code = checked_stdout(
      command, dispatch(args, registry, commit, extra, package_reports_dir), stdout_closed);
  // A point stuck in this process's code (--isolation none) was abandoned after Ctrl-C: its
  // results are written; the process ends without waiting for it or unloading its code.
  if (core::threads_abandoned()) core::exit_abandoning_threads(code);
  return code;
}

}  // namespace simverify::framework
