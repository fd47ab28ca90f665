#include <simverify/framework/runner.hpp>
#include <simverify/framework/statistics.hpp>

#include "detail/text.hpp"
#include "plan.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace simverify::framework {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Alg 9, line 3: Q(u) <- Q(gamma(u)) for one grid point.
PointResult evaluate_point(const Component& component, const Requirement& r, std::size_t index) {
  PointResult p;
  p.index = index;
  const auto start = Clock::now();
  try {
    p.measures = component.evaluate(r.conditions.point(index));
    if (!r.quality.aggregate) {
      const double q = evaluate_measure(p.measures, r.quality.measure);
      p.quality = q;
      p.passed = r.quality.threshold.satisfied(q);
      if (std::isnan(q)) p.error = "the quality is NaN";
    } else {
      p.passed = true;  // decided per group
    }
  } catch (const std::exception& e) {
    p.error = e.what();
    p.passed = false;
  }
  p.seconds = seconds_since(start);
  return p;
}

// Evaluates the points [0, n) of the grid that belong to this shard, on `jobs` threads,
// reporting each to the listener in index order as soon as its predecessors are done.
std::vector<PointResult> evaluate_points(const Component& component, const Requirement& r,
                                         const std::vector<std::size_t>& indices, int jobs,
                                         RunListener& listener) {
  std::vector<PointResult> results(indices.size());
  std::vector<char> done(indices.size(), 0);
  std::mutex mutex;
  std::condition_variable finished;
  std::atomic<std::size_t> next{0};

  auto work = [&] {
    for (std::size_t k = next++; k < indices.size(); k = next++) {
      PointResult p = evaluate_point(component, r, indices[k]);
      std::scoped_lock lock(mutex);
      results[k] = std::move(p);
      done[k] = 1;
      finished.notify_one();
    }
  };
  const auto workers = static_cast<std::size_t>(std::max(1, jobs)) > indices.size()
                           ? indices.size()
                           : static_cast<std::size_t>(std::max(1, jobs));
  std::vector<std::jthread> pool;
  if (workers <= 1) {
    work();
  } else {
    for (std::size_t w = 0; w < workers; ++w) pool.emplace_back(work);
  }
  // Report in grid order from this thread (listeners are single-threaded).
  for (std::size_t k = 0; k < indices.size(); ++k) {
    std::unique_lock lock(mutex);
    finished.wait(lock, [&] { return done[k] != 0; });
    lock.unlock();
    listener.point_finished(r, results[k]);
  }
  return results;
}

std::string describe_point(const Requirement& r, std::size_t index) {
  std::string out;
  for (const auto& [name, value] : r.conditions.point(index).entries()) {
    if (r.conditions.find_axis(name)->values.size() < 2) continue;  // constant axes add noise
    if (!out.empty()) out += ", ";
    out += fmt::format("{}={}", name, value->str());
  }
  return out.empty() ? "the only grid point" : out;
}

// Groups the evaluated points by the axes not aggregated over and reduces each group.
void aggregate(const Requirement& r, RequirementResult& result) {
  const Aggregate& agg = *r.quality.aggregate;
  std::map<std::vector<std::size_t>, GroupResult> groups;  // key: positions of other groups
  const auto& grid_groups = r.conditions.groups();
  auto is_over = [&](const AxisGroup& g) {
    for (const auto& a : g.axes) {
      if (std::find(agg.over.begin(), agg.over.end(), a.name) != agg.over.end()) return true;
    }
    return false;
  };
  for (std::size_t k = 0; k < result.points.size(); ++k) {
    std::vector<std::size_t> key;
    for (std::size_t g = 0; g < grid_groups.size(); ++g) {
      if (!is_over(grid_groups[g])) key.push_back(r.conditions.position(result.points[k].index, g));
    }
    groups[key].points.push_back(k);
  }
  for (auto& [key, group] : groups) {
    std::vector<double> values, axis;
    for (std::size_t k : group.points) {
      const PointResult& p = result.points[k];
      if (p.error) {
        group.error = fmt::format("point {} failed: {}", p.index, *p.error);
        break;
      }
      try {
        values.push_back(evaluate_measure(p.measures, r.quality.measure));
      } catch (const std::exception& e) {
        group.error = e.what();
        break;
      }
      if (agg.statistic.kind == Statistic::Kind::order) {
        axis.push_back(r.conditions.point(p.index).number(agg.over.front()));
      }
    }
    if (!group.error) {
      try {
        group.quality = compute_statistic(agg.statistic, values, axis);
        group.passed = r.quality.threshold.satisfied(*group.quality);
        if (std::isnan(*group.quality)) group.error = "the aggregated quality is NaN";
      } catch (const std::exception& e) {
        group.error = e.what();
      }
    }
    // Store point indices (grid positions) rather than positions in result.points.
    for (auto& k : group.points) k = result.points[k].index;
    result.groups.push_back(std::move(group));
  }
}

void decide(const Requirement& r, RequirementResult& result) {
  bool any_error = false, all_passed = true;
  auto consider = [&](const std::optional<double>& q, bool passed,
                      const std::optional<std::string>& error, std::size_t where) {
    if (error) any_error = true;
    if (!passed || error) all_passed = false;
    if (q && !std::isnan(*q)) {
      if (!result.worst ||
          r.quality.threshold.margin(*q) < r.quality.threshold.margin(*result.worst)) {
        result.worst = q;
        result.worst_point = where;
      }
    }
  };
  if (r.quality.aggregate) {
    for (const auto& g : result.groups) consider(g.quality, g.passed, g.error, g.points.front());
  } else {
    for (const auto& p : result.points) consider(p.quality, p.passed, p.error, p.index);
  }
  if (any_error) {
    result.status = Status::error;
    for (const auto& p : result.points) {
      if (p.error) {
        result.reason = fmt::format("at {}: {}", describe_point(r, p.index), *p.error);
        break;
      }
    }
    if (result.reason.empty()) {
      for (const auto& g : result.groups) {
        if (g.error) {
          result.reason = *g.error;
          break;
        }
      }
    }
  } else if (!all_passed) {
    result.status = Status::failed;
    result.reason = fmt::format("worst {} at {} (threshold {})",
                                result.worst ? fmt::format("{:.6g}", *result.worst) : "n/a",
                                result.worst_point ? describe_point(r, *result.worst_point) : "-",
                                r.quality.threshold.str());
  } else {
    result.status = Status::passed;
  }
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
  info.jobs = options_.jobs;
  if (options_.shard_count > 1)
    info.shard = fmt::format("{}/{}", options_.shard_index, options_.shard_count);
  listener.run_started(info);

  std::vector<RequirementResult> results;
  std::map<std::string, Status> status_by_id;
  std::string stop_reason;  // set once fail-fast stops the run

  for (Level level : {Level::unit, Level::integration, Level::system}) {
    std::vector<const PlanStep*> steps;
    for (const auto& step : plan.steps) {
      if (step.requirement->level == level) steps.push_back(&step);
    }
    if (steps.empty()) continue;
    listener.level_started(level, steps.size());
    bool level_passed = true;
    for (const PlanStep* step : steps) {
      const Requirement& r = *step->requirement;
      RequirementResult result;
      result.requirement = &r;
      std::string blocked;
      for (const auto& dep : r.depends_on) {
        auto it = status_by_id.find(dep);
        if (it != status_by_id.end() && it->second != Status::passed) {
          blocked = dep;
          break;
        }
      }
      listener.requirement_started(r, step->points.size());
      const auto r_start = Clock::now();
      if (!stop_reason.empty()) {
        result.status = Status::skipped;
        result.reason = stop_reason;
      } else if (!blocked.empty()) {
        result.status = Status::skipped;
        result.reason = "blocked by " + blocked;
      } else {
        const Component* component = registry_->find(r.component);
        result.points = evaluate_points(*component, r, step->points, options_.jobs, listener);
        if (r.quality.aggregate) aggregate(r, result);
        decide(r, result);
      }
      result.seconds = seconds_since(r_start);
      status_by_id[r.id] = result.status;
      if (result.status != Status::passed) level_passed = false;
      if (options_.fail_fast == FailFast::first && stop_reason.empty() &&
          (result.status == Status::failed || result.status == Status::error)) {
        stop_reason = fmt::format("not run: fail-fast=first stopped after {} failed", r.id);
      }
      listener.requirement_finished(result);
      results.push_back(std::move(result));
    }
    listener.level_finished(level, level_passed);
    // Alg 11, line 13: a failed level stops the run before the next level.
    if (!level_passed && options_.fail_fast == FailFast::level && stop_reason.empty()) {
      stop_reason =
          fmt::format("not run: level {} did not pass (fail-fast=level)", to_string(level));
    }
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
  summary.complete = true;
  // Def 5.17: releasable iff every planned requirement ran and met its threshold.
  summary.releasable = !results.empty() && summary.passed == static_cast<int>(results.size());
  summary.seconds = seconds_since(start);
  listener.run_finished(summary, results);
  return summary;
}

}  // namespace simverify::framework
