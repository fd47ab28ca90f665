#pragma once
// Internal: the planner. Orders requirements unit -> integration -> system and, inside a
// level, dependencies first (Alg 11); applies --level and --filter; assigns grid points to
// shards.
#include <simverify/framework/requirement.hpp>
#include <simverify/framework/runner.hpp>

#include <vector>

namespace simverify::framework {

struct PlanStep {
  const Requirement* requirement = nullptr;
  std::vector<std::size_t> points;  // grid indices this shard evaluates
};

struct Plan {
  std::vector<PlanStep> steps;
  [[nodiscard]] std::size_t size() const { return steps.size(); }
};

[[nodiscard]] Plan make_plan(const std::vector<Requirement>& requirements,
                             const RunOptions& options);

// The shard (0-based) that evaluates point `index` of requirement `r` among `count` shards.
// Points of one aggregation group stay together so each shard can decide its groups.
[[nodiscard]] std::size_t shard_of(const Requirement& r, std::size_t index, std::size_t count);

}  // namespace simverify::framework
