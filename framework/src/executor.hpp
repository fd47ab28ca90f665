#pragma once
// Internal: the executor of Alg 9 — evaluates the grid points of one requirement and hands
// each result to a sink in grid order. Two isolations (runner.hpp, Isolation):
//   process_executor.cpp  forked workers, timeouts, crashes become point errors;
//   thread_executor.cpp   threads in this process.
#include <simverify/framework/component.hpp>
#include <simverify/framework/requirement.hpp>
#include <simverify/framework/results.hpp>
#include <simverify/framework/runner.hpp>

#include <simverify/core/temp_folder.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace simverify::framework {

using PointSink = std::function<void(PointResult&)>;
// How much of the points being evaluated now is done, summed (point_progress.hpp: 1.5 is
// three points half done); called about every 100 ms while workers run.
using InFlightSink = std::function<void(double)>;

// Alg 9, line 3: gamma(u) and its number Q(gamma(u)) for one point, with exceptions, NaN and
// a missing measure turned into the point's error. Quality and pass/fail are decided later.
// `timeout_seconds` (the run's --timeout), `needs` (MeasureNeeds::of the requirement;
// null: every measure) and `stop` (the run's stop flag, for points in the run's own process)
// reach the component in its PointContext, and `temp_folder` (the executor's TemporaryFolder
// below; null: TMPDIR) too.
[[nodiscard]] PointResult evaluate_point(const Component& component, const Requirement& r,
                                         std::size_t index, double timeout_seconds = 0.0,
                                         const MeasureNeeds* needs = nullptr,
                                         const std::atomic<bool>* stop = nullptr,
                                         const std::filesystem::path* temp_folder = nullptr);

// The same, timed from `clock.start` (the caller's reading) to `clock.end` (set here), so a
// loop over points reads the clock once per point: the end of one is the start of the next.
// On a virtual machine a clock read costs ~50-100 ns, about 1% of a 10 us component each.
struct PointClock {
  using Clock = std::chrono::steady_clock;
  Clock::time_point start = Clock::now();
  Clock::time_point end;
};
[[nodiscard]] PointResult evaluate_point(const Component& component, const Requirement& r,
                                         std::size_t index, PointClock& clock,
                                         double timeout_seconds = 0.0,
                                         const MeasureNeeds* needs = nullptr,
                                         const std::atomic<bool>* stop = nullptr,
                                         const std::filesystem::path* temp_folder = nullptr);

// The temporary folder of one executor's points (PointContext::temp_folder; the worker
// processes' TMPDIR): `prefix`XXXXXX in RunOptions::temp_root, else `system_prefix`XXXXXX in
// TMPDIR, removed with everything in it when the executor ends. A point killed by Ctrl-C or
// --timeout runs no destructor, and a SIGKILLed run none at all: what it left goes with this
// folder, or with the staging folder it lies in. Empty when no folder can be made: the points
// use TMPDIR then.
class ExecutorTemp {
 public:
  ExecutorTemp(const std::filesystem::path& root, std::string_view prefix,
               std::string_view system_prefix);
  [[nodiscard]] const std::filesystem::path* folder() const {
    return folder_ ? &folder_->path() : nullptr;
  }

 private:
  std::optional<core::TemporaryFolder> folder_;
};

// Evaluates `indices` (grid indices, one shard's share) and calls `sink` once per index, in
// the order of `indices`, and `in_flight` with the progress inside the points under way.
// Returns false when options.stop interrupted it.
bool evaluate_in_processes(const Component& component, const Requirement& r,
                           const std::vector<std::size_t>& indices, const RunOptions& options,
                           const PointSink& sink, const InFlightSink& in_flight = nullptr);
bool evaluate_in_threads(const Component& component, const Requirement& r,
                         const std::vector<std::size_t>& indices, const RunOptions& options,
                         const PointSink& sink, const InFlightSink& in_flight = nullptr);

}  // namespace simverify::framework
