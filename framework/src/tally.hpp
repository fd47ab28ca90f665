#pragma once
// Internal: decides one requirement from its points as they stream past (Alg 9, lines 4-6;
// Def 5.17), keeping only what the decision needs: the worst value so far, the first error,
// and for `aggregate:` each group's values. Shared by the runner and `simverify merge`, so a
// merged verdict is computed exactly as an unsharded one.
#include <simverify/framework/quality.hpp>
#include <simverify/framework/results.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {

// Def 5.17 judges an aggregated requirement per group: a point of a group that failed (or erred)
// is not a passing point. For each point index of `result.groups`, the group it belongs to when
// that group failed; results.json records such a point "passed": false, "group_passed": false,
// and JUnit points and `diff --points` show it failed (docs/runner.md "results.json").
[[nodiscard]] std::map<std::size_t, std::size_t> points_of_failing_groups(
    const RequirementResult& result);

class RequirementTally {
 public:
  // Describes grid point `index` for messages ("h=0.01, method=ode4"); `group` leaves out the
  // aggregated axes.
  using Describe = std::function<std::string(std::size_t index, bool group)>;

  RequirementTally(Threshold threshold, std::optional<Aggregate> aggregate, Describe describe);

  // Takes one point (in grid order) and sets its quality and pass/fail when it is decided
  // alone. `group_key` identifies its aggregation group; `axis` is its coordinate along the
  // single `over` axis (used by `order`).
  void add(PointResult& point, const std::string& group_key = {}, double axis = 0.0);

  // Reduces the groups and sets status, reason, worst, worst_point and groups of `result`.
  void finish(RequirementResult& result);

 private:
  struct Group {
    std::vector<std::size_t> points;
    std::vector<double> values, axis;
    std::optional<std::string> error;
  };
  void consider(const std::optional<double>& quality, bool passed, bool error, std::size_t where);

  Threshold threshold_;
  std::optional<Aggregate> aggregate_;
  Describe describe_;
  std::map<std::string, std::size_t, std::less<>> group_of_;
  std::vector<Group> groups_;
  std::optional<std::string> first_error_;
  std::optional<double> worst_;
  std::optional<std::size_t> worst_point_;
  bool any_error_ = false, all_passed_ = true;
};

}  // namespace simverify::framework
