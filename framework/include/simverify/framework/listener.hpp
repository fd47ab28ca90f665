#pragma once
// The run as an ordered event stream (as GoogleTest's TestEventListener): reporters subscribe
// and override only what they need. Callbacks are declared in the order they fire and are
// always called from one thread.
#include <simverify/framework/results.hpp>

#include <memory>
#include <vector>

namespace simverify::framework {

// A requirement as planned: its id and the number of grid points it will run (in a shard,
// its share).
struct PlannedRequirement {
  std::string id;
  std::size_t points = 0;
};

struct RunInfo {
  std::size_t requirements = 0;
  std::size_t points = 0;
  std::vector<PlannedRequirement> order;  // the requirements in the order they will run
  int jobs = 1;
  std::string shard;      // "I/N" or empty
  std::string fail_fast;  // "level", "first" or "none"
  // What was planned (fingerprint.hpp): shards of one run share it, `merge` checks it.
  std::string fingerprint;
  // The project file (gate settings) beside the requirements, recorded so `gate` finds the
  // same one wherever it runs; empty when there is none.
  std::string project_file;
  // What the run was made from and how it was narrowed, recorded so `gate` can load the same
  // requirement files again: the paths given (absolute), --level and --filter (empty: none).
  std::vector<std::string> sources;
  std::string level;
  std::string filter;
};

class RunListener {
 public:
  virtual ~RunListener() = default;
  virtual void run_started(const RunInfo& /*info*/) {}
  virtual void level_started(Level /*level*/, std::size_t /*requirements*/) {}
  virtual void requirement_started(const Requirement& /*requirement*/, std::size_t /*points*/) {}
  virtual void point_finished(const Requirement& /*requirement*/, const PointResult& /*point*/) {}
  // Progress inside the points under way (point_progress.hpp), about every 100 ms while a
  // worker is inside a point: their fractions done, summed (1.5: three points half done).
  virtual void points_in_progress(const Requirement& /*requirement*/, double /*done*/) {}
  virtual void requirement_finished(const RequirementResult& /*result*/) {}
  virtual void level_finished(Level /*level*/, bool /*passed*/) {}
  virtual void run_finished(const RunSummary& /*summary*/,
                            const std::vector<RequirementResult>& /*results*/) {}
};

// Fans every event out to its listeners, in the order they were added.
class ListenerList final : public RunListener {
 public:
  void add(std::unique_ptr<RunListener> listener) { listeners_.push_back(std::move(listener)); }
  void run_started(const RunInfo& info) override;
  void level_started(Level level, std::size_t requirements) override;
  void requirement_started(const Requirement& requirement, std::size_t points) override;
  void point_finished(const Requirement& requirement, const PointResult& point) override;
  void points_in_progress(const Requirement& requirement, double done) override;
  void requirement_finished(const RequirementResult& result) override;
  void level_finished(Level level, bool passed) override;
  void run_finished(const RunSummary& summary,
                    const std::vector<RequirementResult>& results) override;

 private:
  std::vector<std::unique_ptr<RunListener>> listeners_;
};

}  // namespace simverify::framework
