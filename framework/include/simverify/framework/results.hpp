#pragma once
// Results of a run, as the listeners see them and as results.json stores them.
#include <simverify/framework/measurement.hpp>
#include <simverify/framework/requirement.hpp>

#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {

enum class Status { passed, failed, error, skipped };
[[nodiscard]] const char* to_string(Status status);

struct PointResult {
  std::size_t index = 0;  // position in the requirement's grid
  Measurement measures;
  std::optional<double> quality;  // nothing when aggregated or on error
  std::optional<double> value;    // the point's number (measure or compared distance)
  bool passed = false;
  std::optional<std::string> error;
  double seconds = 0.0;
};

// One aggregation group (points that differ only in the `over` axes).
struct GroupResult {
  std::vector<std::size_t> points;
  std::optional<double> quality;
  bool passed = false;
  std::optional<std::string> error;
};

struct RequirementResult {
  const Requirement* requirement = nullptr;
  Status status = Status::skipped;
  std::string reason;           // why skipped / error summary
  std::optional<double> worst;  // quality farthest on the wrong side, or closest
  std::optional<std::size_t> worst_point;
  std::size_t point_count = 0;      // points evaluated (by this shard)
  std::vector<PointResult> points;  // only with RunOptions::keep_points; else streamed
  std::vector<GroupResult> groups;  // when aggregated
  double seconds = 0.0;
};

struct RunSummary {
  bool complete = true;  // false when interrupted
  // Def 5.17 by the gate's rules (release_rules.hpp): every requirement of the files planned,
  // ran and passed, not a shard, and every level the project file requires ran.
  bool releasable = false;
  // The rules that do not hold, as the gate words them; empty when releasable.
  std::vector<std::string> not_releasable;
  int passed = 0, failed = 0, errors = 0, skipped = 0;
  double seconds = 0.0;
};

}  // namespace simverify::framework
