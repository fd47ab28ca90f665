#include "cross_file.hpp"

#include "detail/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace simverify::framework::loader {

void check_cross_file(LoadResult& out) {
  std::map<std::string, const Requirement*> by_id;
  for (const auto& r : out.requirements) {
    auto [it, inserted] = by_id.emplace(r.id, &r);
    if (!inserted) {
      out.errors.push_back({r.location, fmt::format("duplicate id '{}' (first defined at {})", r.id,
                                                    it->second->location.str())});
    }
  }
  std::vector<std::string> ids;
  for (const auto& [id, r] : by_id) ids.push_back(id);
  for (const auto& r : out.requirements) {
    for (const auto& dep : r.depends_on) {
      auto it = by_id.find(dep);
      if (it == by_id.end()) {
        out.errors.push_back({r.location, fmt::format("'{}' depends on unknown requirement '{}'{}",
                                                      r.id, dep, detail::did_you_mean(dep, ids))});
      } else if (it->second->level > r.level) {
        // Alg 11 runs unit -> integration -> system: a dependency on a later level could
        // never be decided first.
        out.errors.push_back(
            {r.location, fmt::format("{} requirement '{}' cannot depend on {} requirement '{}': "
                                     "levels run unit -> integration -> system",
                                     to_string(r.level), r.id, to_string(it->second->level), dep)});
      }
    }
  }
  // Dependency cycles (depth-first search with colours).
  std::map<std::string, int> colour;  // 0 new, 1 on stack, 2 done
  std::vector<std::string> stack;
  std::function<void(const Requirement&)> visit = [&](const Requirement& r) {
    colour[r.id] = 1;
    stack.push_back(r.id);
    for (const auto& dep : r.depends_on) {
      auto it = by_id.find(dep);
      if (it == by_id.end()) continue;
      if (colour[dep] == 1) {
        auto from = std::find(stack.begin(), stack.end(), dep);
        std::vector<std::string> cycle(from, stack.end());
        cycle.push_back(dep);
        out.errors.push_back(
            {it->second->location, "dependency cycle: " + detail::join(cycle, " -> ")});
      } else if (colour[dep] == 0) {
        visit(*it->second);
      }
    }
    stack.pop_back();
    colour[r.id] = 2;
  };
  for (const auto& [id, r] : by_id) {
    if (colour[id] == 0) visit(*r);
  }
}

}  // namespace simverify::framework::loader
