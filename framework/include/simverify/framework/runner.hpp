#pragma once
// The structured runner: Alg 9 (evaluate a requirement over its grid), Alg 10 (run all) and
// Alg 11 (level by level, fail fast) are one executor with different plans.
#include <simverify/framework/component.hpp>
#include <simverify/framework/listener.hpp>
#include <simverify/framework/measure_needs.hpp>

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {

enum class FailFast { level, first, none };
[[nodiscard]] const char* to_string(FailFast policy);

// Where components run. `process` (default): forked worker processes, so a crash, an abort
// or a hang past --timeout becomes an error of that grid point and the run goes on.
// `none`: threads in this process (for debuggers and sanitizers); no timeout, a crash ends it.
enum class Isolation { process, none };

// The timeouts a run can keep: the executor looks every millisecond at the shortest, and
// the longest (11.6 days) stays far from overflowing the nanosecond clock. For no limit, set
// none.
inline constexpr double kMinTimeoutSeconds = 1e-3;
inline constexpr double kMaxTimeoutSeconds = 1e6;
// Each job is a worker process (or thread) with its own pipes: far more jobs than any machine
// has cores would only exhaust the process and file-descriptor limits before a point runs.
inline constexpr int kMaxJobs = 1024;

struct RunOptions {
  std::optional<Level> level;  // only this level
  std::string filter;          // glob on requirement ids
  FailFast fail_fast = FailFast::level;
  int jobs = 0;         // 0: all cores; at most kMaxJobs
  int shard_index = 1;  // 1-based
  int shard_count = 1;
  // Recorded in the results (RunInfo::project_file) for `gate`; empty when there is none.
  std::string project_file;
  // The levels that project file requires to have run (its `gate: levels`): the run's verdict
  // and RunSummary::releasable apply the gate's rules, this one included.
  std::vector<Level> required_levels;
  // The requirement files and folders the run was given (absolute), recorded in the results
  // (RunInfo::sources) so `gate` holds the results to them.
  std::vector<std::string> sources;
  // Per point, within [kMinTimeoutSeconds, kMaxTimeoutSeconds]; 0: none.
  double timeout_seconds = 0.0;
  Isolation isolation = Isolation::process;
  // What the reporters keep of each point's series; the components compute only the measures
  // the requirement and this need (MeasureNeeds::of). `all` computes every measure.
  SeriesOutput series = SeriesOutput::all;
  // Keep every PointResult in RequirementResult::points. Off by default: points are streamed
  // to the listeners and only per-requirement aggregates stay in memory (1e6-point grids).
  bool keep_points = false;
  // Where worker processes (and, with Isolation::none, the points' threads) get a temporary
  // folder of their own, removed when each requirement ends; empty: the system's temporary
  // folder. The command line gives its staging folder, so even what a SIGKILLed run left, or
  // the folder of a thread abandoned after a stop, goes with the staging folder on the next run.
  std::filesystem::path temp_root;
  // Polled between points; when it becomes true the run stops, in-flight points are
  // abandoned (their workers killed) and the summary says complete = false (Ctrl-C). With
  // Isolation::none the points run on threads (one job too) and a point still under way a
  // second after the stop cannot be killed: its thread is detached and left running
  // (core::threads_abandoned() says so), so the requirements and the registry must then
  // outlive the process; the command line ends it with core::exit_abandoning_threads.
  const std::atomic<bool>* stop = nullptr;
};

class Runner {
 public:
  Runner(const ComponentRegistry& registry, RunOptions options);

  // Runs the requirements (in the loader's order) and reports to `listener`.
  RunSummary run(const std::vector<Requirement>& requirements, RunListener& listener);

 private:
  const ComponentRegistry* registry_;
  RunOptions options_;
};

}  // namespace simverify::framework
