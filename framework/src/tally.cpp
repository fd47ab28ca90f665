#include "tally.hpp"

#include <simverify/framework/statistics.hpp>

#include <fmt/format.h>

#include <cmath>

namespace simverify::framework {

std::map<std::size_t, std::size_t> points_of_failing_groups(const RequirementResult& result) {
  std::map<std::size_t, std::size_t> failing;
  for (std::size_t g = 0; g < result.groups.size(); ++g) {
    if (result.groups[g].passed) continue;
    for (const std::size_t index : result.groups[g].points) failing.emplace(index, g);
  }
  return failing;
}

RequirementTally::RequirementTally(Threshold threshold, std::optional<Aggregate> aggregate,
                                   Describe describe)
    : threshold_(threshold), aggregate_(std::move(aggregate)), describe_(std::move(describe)) {}

void RequirementTally::consider(const std::optional<double>& quality, bool passed, bool error,
                                std::size_t where) {
  if (error) any_error_ = true;
  if (!passed || error) all_passed_ = false;
  // `worst`: the value farthest on the wrong side of the threshold, or closest to it.
  if (quality && !std::isnan(*quality) &&
      (!worst_ || threshold_.margin(*quality) < threshold_.margin(*worst_))) {
    worst_ = quality;
    worst_point_ = where;
  }
}

void RequirementTally::add(PointResult& point, const std::string& group_key, double axis) {
  if (!aggregate_) {
    point.quality = point.error ? std::nullopt : point.value;
    point.passed = !point.error && point.value && threshold_.satisfied(*point.value);
    if (point.error && !first_error_) {
      first_error_ = fmt::format("at {}: {}", describe_(point.index, false), *point.error);
    }
    consider(point.quality, point.passed, point.error.has_value(), point.index);
    return;
  }
  point.quality.reset();
  point.passed = !point.error;  // decided per group
  auto [it, inserted] = group_of_.try_emplace(group_key, groups_.size());
  if (inserted) groups_.emplace_back();
  Group& g = groups_[it->second];
  g.points.push_back(point.index);
  if (g.error) return;
  if (point.error) {
    g.error = fmt::format("point {} ({}) failed: {}", point.index, describe_(point.index, false),
                          *point.error);
    return;
  }
  g.values.push_back(point.value.value_or(std::nan("")));
  g.axis.push_back(axis);
}

void RequirementTally::finish(RequirementResult& result) {
  for (Group& g : groups_) {
    GroupResult out;
    out.points = std::move(g.points);
    out.error = std::move(g.error);
    if (!out.error) {
      try {
        out.quality = compute_statistic(aggregate_->statistic, g.values, g.axis);
        out.passed = threshold_.satisfied(*out.quality);
        if (std::isnan(*out.quality)) out.error = "the aggregated quality is NaN";
      } catch (const std::exception& e) {
        out.error = fmt::format("{}: {}", describe_(out.points.front(), true), e.what());
      }
    }
    if (out.error) out.passed = false;
    if (out.error && !first_error_) first_error_ = *out.error;
    consider(out.quality, out.passed, out.error.has_value(), out.points.front());
    result.groups.push_back(std::move(out));
  }
  groups_.clear();
  result.worst = worst_;
  result.worst_point = worst_point_;
  if (any_error_) {
    // A point or group could not be evaluated: no value is the requirement's worst, least of
    // all a passing one (results.json records null; the reason names what erred).
    result.worst.reset();
    result.worst_point.reset();
    result.status = Status::error;
    result.reason = first_error_.value_or("error");
  } else if (!all_passed_) {
    result.status = Status::failed;
    result.reason = fmt::format(
        "worst {} at {} (threshold {})", worst_ ? fmt::format("{:.6g}", *worst_) : "n/a",
        worst_point_ ? describe_(*worst_point_, aggregate_.has_value()) : "-", threshold_.str());
  } else {
    result.status = Status::passed;
  }
}

}  // namespace simverify::framework
