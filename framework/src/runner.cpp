// The structured runner: Alg 11 over the plan (levels, depends_on, fail-fast), Alg 9 for each
// requirement through an executor, results as an ordered event stream (listener.hpp).
#include <simverify/framework/runner.hpp>

#include "executor.hpp"
#include "fail_fast.hpp"
#include "fingerprint.hpp"
#include "plan.hpp"
#include "point_description.hpp"
#include "tally.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <variant>

namespace simverify::framework {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A scenario study's worst (best) case is one of its scenarios (docs/studies.md): ", scenario
// slow" for a point judged by worst_case (best_case), so the reason names it; worst_scenario
// is its 0-based index in the file order of `scenarios:`. Empty for any other point.
std::string scenario_note(const Requirement& r, const PointResult& point) {
  if (r.quality.aggregate) return {};
  const std::string& measure = r.quality.measure;
  const char* which = measure == "worst_case"  ? "worst_scenario"
                      : measure == "best_case" ? "best_scenario"
                                               : nullptr;
  const Measure* chosen = which != nullptr ? point.measures.find(which) : nullptr;
  const double* k = chosen != nullptr ? std::get_if<double>(chosen) : nullptr;
  const Value* set = r.conditions.point(point.index).find("scenarios");
  if (k == nullptr || set == nullptr || !set->is_map() || !(*k >= 0.0) ||
      *k >= static_cast<double>(set->as_map().size())) {
    return {};
  }
  return fmt::format(", scenario {}", set->as_map()[static_cast<std::size_t>(*k)].first);
}

void evaluate_requirement(const Component& component, const Requirement& r,
                          const std::vector<std::size_t>& indices, const RunOptions& options,
                          RunListener& listener, RequirementResult& result) {
  std::map<std::size_t, std::string> notes;  // scenario_note() of the points that have one
  RequirementTally tally(r.quality.threshold, r.quality.aggregate,
                         [&r, &notes](std::size_t index, bool group) {
                           std::string text = describe_point(r, index, group);
                           if (auto it = notes.find(index); !group && it != notes.end()) {
                             text += it->second;
                           }
                           return text;
                         });
  const auto& groups = r.conditions.groups();
  std::vector<bool> over(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) over[g] = is_over(r, groups[g]);
  std::string key;
  const PointSink sink = [&](PointResult& point) {
    key.clear();
    double axis = 0.0;
    if (r.quality.aggregate) {
      for (std::size_t g = 0; g < groups.size(); ++g) {
        if (!over[g]) key += fmt::format("{},", r.conditions.position(point.index, g));
      }
      if (r.quality.aggregate->statistic.kind == Statistic::Kind::order) {
        axis = r.conditions.point(point.index).number(r.quality.aggregate->over.front());
      } else if (r.quality.aggregate->statistic.weighted()) {
        axis = r.conditions.point(point.index).number(r.quality.aggregate->weight);
      }
    }
    if (std::string note = scenario_note(r, point); !note.empty()) notes[point.index] = note;
    tally.add(point, key, axis);
    ++result.point_count;
    listener.point_finished(r, point);
    if (options.keep_points) result.points.push_back(std::move(point));
  };
  const InFlightSink in_flight = [&](double done) { listener.points_in_progress(r, done); };
  const bool complete = options.isolation == Isolation::process
                            ? evaluate_in_processes(component, r, indices, options, sink, in_flight)
                            : evaluate_in_threads(component, r, indices, options, sink, in_flight);
  if (!complete) {
    result.status = Status::skipped;
    result.reason = fmt::format("not run: interrupted after {} of {} point(s)", result.point_count,
                                indices.size());
    return;
  }
  tally.finish(result);
}

// Alg 11: levels run in this order, each after the one before has passed.
constexpr std::array<Level, 3> kLevelOrder = {Level::unit, Level::integration, Level::system};

std::vector<const PlanStep*> steps_of(const Plan& plan, Level level) {
  std::vector<const PlanStep*> steps;
  for (const auto& step : plan.steps) {
    if (step.requirement->level == level) steps.push_back(&step);
  }
  return steps;
}

}  // namespace

Runner::Runner(const ComponentRegistry& registry, RunOptions options)
    : registry_(&registry), options_(std::move(options)) {
  if (options_.jobs <= 0) {
    options_.jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  }
}

RunSummary Runner::run(const std::vector<Requirement>& requirements, RunListener& listener) {
  const auto start = Clock::now();
  const Plan plan = make_plan(requirements, options_);
  RunInfo info;
  info.requirements = plan.size();
  for (const auto& step : plan.steps) info.points += step.points.size();
  for (Level level : kLevelOrder) {
    for (const PlanStep* step : steps_of(plan, level)) {
      info.order.push_back({step->requirement->id, step->points.size()});
    }
  }
  info.jobs = options_.jobs;
  info.fail_fast = to_string(options_.fail_fast);
  const bool sharded = options_.shard_count > 1;
  if (sharded) info.shard = fmt::format("{}/{}", options_.shard_index, options_.shard_count);
  info.fingerprint = plan_fingerprint(plan, info.fail_fast);
  info.project_file = options_.project_file;
  info.sources = options_.sources;
  if (options_.level) info.level = to_string(*options_.level);
  info.filter = options_.filter;
  listener.run_started(info);

  std::vector<RequirementResult> results;
  FailFastGate gate(options_.fail_fast);
  bool interrupted = false;
  auto stop_requested = [&] { return options_.stop != nullptr && options_.stop->load(); };

  for (Level level : kLevelOrder) {
    const std::vector<const PlanStep*> steps = steps_of(plan, level);
    if (steps.empty()) continue;
    listener.level_started(level, steps.size());
    bool level_passed = true;
    for (const PlanStep* step : steps) {
      const Requirement& r = *step->requirement;
      RequirementResult result;
      result.requirement = &r;
      listener.requirement_started(r, step->points.size());
      const auto r_start = Clock::now();
      interrupted = interrupted || stop_requested();
      const std::string skip =
          interrupted ? "not run: interrupted" : gate.skip_reason(r.id, r.depends_on);
      // A shard's share of a requirement can be empty: it reports no verdict of its own (never
      // PASS for zero points) and does not block the requirements after it; merge decides.
      const bool empty_share = sharded && step->points.empty();
      if (!skip.empty()) {
        result.status = Status::skipped;
        result.reason = skip;
      } else if (empty_share) {
        result.status = Status::skipped;
        result.reason = fmt::format("none of its {} grid point(s) is in shard {}",
                                    r.conditions.size(), info.shard);
      } else {
        const Component* component = registry_->find(r.component);
        if (component == nullptr) {
          result.status = Status::error;
          result.reason = fmt::format("component '{}' is not registered", r.component);
        } else {
          evaluate_requirement(*component, r, step->points, options_, listener, result);
          interrupted = interrupted || stop_requested();
        }
      }
      result.seconds = seconds_since(r_start);
      if (!(empty_share && skip.empty())) {
        gate.requirement_finished(r.id, result.status);
        if (result.status != Status::passed) level_passed = false;
      }
      listener.requirement_finished(result);
      results.push_back(std::move(result));
    }
    listener.level_finished(level, level_passed);
    gate.level_finished(level, level_passed);
  }

  RunSummary summary;
  for (const auto& r : results) {
    switch (r.status) {
      case Status::passed: ++summary.passed; break;
      case Status::failed: ++summary.failed; break;
      case Status::error: ++summary.errors; break;
      case Status::skipped: ++summary.skipped; break;
    }
  }
  summary.complete = !interrupted;
  // Def 5.17: releasable iff every planned requirement ran and met its threshold. A shard saw
  // only its share of the points: only `merge` of all shards can say that.
  summary.releasable = !sharded && summary.complete && !results.empty() &&
                       summary.passed == static_cast<int>(results.size());
  summary.seconds = seconds_since(start);
  listener.run_finished(summary, results);
  return summary;
}

}  // namespace simverify::framework
