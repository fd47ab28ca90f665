#include "plan.hpp"

#include "selection.hpp"

#include <simverify/core/fnv1a.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace simverify::framework {
namespace {

using core::fnv1a;

// Index of the aggregation group point `index` belongs to (the point itself when the
// requirement is not aggregated).
std::size_t group_key(const Requirement& r, std::size_t index) {
  if (!r.quality.aggregate) return index;
  const auto& over = r.quality.aggregate->over;
  const auto& groups = r.conditions.groups();
  std::size_t key = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    bool aggregated = false;
    for (const auto& a : groups[g].axes) {
      aggregated |= std::find(over.begin(), over.end(), a.name) != over.end();
    }
    if (!aggregated) key = key * groups[g].size() + r.conditions.position(index, g);
  }
  return key;
}

}  // namespace

std::size_t shard_of(const Requirement& r, std::size_t index, std::size_t count) {
  // Offset by the id so small requirements do not all land on shard 1.
  return (fnv1a(r.id) + group_key(r, index)) % count;
}

Plan make_plan(const std::vector<Requirement>& requirements, const RunOptions& options) {
  std::map<std::string, const Requirement*> by_id;
  for (const auto& r : requirements) by_id[r.id] = &r;

  std::vector<const Requirement*> ordered;
  std::set<std::string> placed;
  // Dependencies first, otherwise file order (depth-first; cycles were rejected on load).
  std::function<void(const Requirement&)> place = [&](const Requirement& r) {
    if (placed.contains(r.id)) return;
    placed.insert(r.id);
    for (const auto& dep : r.depends_on) {
      auto it = by_id.find(dep);
      if (it != by_id.end() && it->second->level == r.level) place(*it->second);
    }
    ordered.push_back(&r);
  };
  for (Level level : {Level::unit, Level::integration, Level::system}) {
    for (const auto& r : requirements) {
      if (r.level == level) place(r);
    }
  }

  Plan plan;
  const auto count = static_cast<std::size_t>(std::max(1, options.shard_count));
  const auto mine = static_cast<std::size_t>(options.shard_index - 1);
  for (const Requirement* r : ordered) {
    if (!is_selected(*r, options.level, options.filter)) continue;
    PlanStep step{r, {}};
    const std::size_t n = r->conditions.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (count == 1 || shard_of(*r, i, count) == mine) step.points.push_back(i);
    }
    plan.steps.push_back(std::move(step));
  }
  return plan;
}

}  // namespace simverify::framework
