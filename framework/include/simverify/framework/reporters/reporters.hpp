#pragma once
// The built-in reporters, each an ordinary RunListener (one file per reporter in src/reporters).
#include <simverify/framework/listener.hpp>
#include <simverify/framework/measure_needs.hpp>  // SeriesOutput

#include <filesystem>
#include <iosfwd>
#include <map>
#include <memory>

namespace simverify::framework {

class ComponentRegistry;

struct ConsoleOptions {
  bool progress_bar = false;  // a live bar with counts and ETA (terminals only)
  bool verbose = false;       // a line per grid point: condition, measures, quality
  bool colour = false;        // ANSI colours (terminals only; never with NO_COLOR or in CI)
  // Requirement id -> seconds per grid point in an earlier run (the results folder's previous
  // results.json): the ETA's prior for each requirement's cost.
  std::map<std::string, double> earlier_seconds_per_point = {};
  // Where the closing lines (counts, verdict) go when not to `out`: `run` prints them only
  // once the results are in place, so no verdict is shown for results that were not written.
  std::ostream* summary = nullptr;
};

// Human-readable progress and verdict (plain lines in CI logs).
[[nodiscard]] std::unique_ptr<RunListener> make_console_reporter(std::ostream& out,
                                                                 ConsoleOptions options);

// results.json (format "simverify.results/1") in `out_dir`, written atomically. With
// `components`, each requirement's component figures (Component::figures) are written as
// figures/<id>/<k>.gv and listed under the requirement's "figures".
[[nodiscard]] std::unique_ptr<RunListener> make_json_reporter(
    std::filesystem::path out_dir, SeriesOutput series = SeriesOutput::quality,
    const ComponentRegistry* components = nullptr);

// junit.xml: one testsuite per level, one testcase per requirement with its numbers
// (threshold, worst, margin, grid size). With `per_point`, also a testsuite "<level>.points"
// per level with a testcase per evaluated grid point (kept in memory until the run ends).
[[nodiscard]] std::unique_ptr<RunListener> make_junit_reporter(std::filesystem::path file,
                                                               bool per_point = false);

}  // namespace simverify::framework
