#include "cross_file.hpp"

#include "detail/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace simverify::framework::loader {
namespace {

using ById = std::map<std::string, const Requirement*>;

// Dependency cycles: depth-first search with colours, iterative (an explicit path of
// requirements, each with the index of its next dependency), so a chain of 50,000
// dependencies costs memory, not the call stack.
void check_cycles(const ById& by_id, Diagnostics& errors) {
  enum class Colour { fresh, on_path, done };
  std::map<std::string, Colour> colour;
  for (const auto& [id, r] : by_id) colour[id] = Colour::fresh;
  for (const auto& [root_id, root] : by_id) {
    if (colour[root_id] != Colour::fresh) continue;
    std::vector<std::pair<const Requirement*, std::size_t>> path{{root, 0}};
    colour[root_id] = Colour::on_path;
    while (!path.empty()) {
      auto& [r, next] = path.back();
      if (next == r->depends_on.size()) {
        colour[r->id] = Colour::done;
        path.pop_back();
        continue;
      }
      const std::string& dep = r->depends_on[next++];
      const auto it = by_id.find(dep);
      if (it == by_id.end()) continue;
      if (colour[dep] == Colour::on_path) {
        const auto from = std::find_if(path.begin(), path.end(),
                                       [&](const auto& step) { return step.first->id == dep; });
        std::vector<std::string> cycle;
        for (auto step = from; step != path.end(); ++step) cycle.push_back(step->first->id);
        cycle.push_back(dep);
        errors.push_back(
            {it->second->location, "dependency cycle: " + detail::join(cycle, " -> ")});
      } else if (colour[dep] == Colour::fresh) {
        colour[dep] = Colour::on_path;
        path.emplace_back(it->second, 0);
      }
    }
  }
}

}  // namespace

void check_cross_file(LoadResult& out) {
  ById by_id;
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
  check_cycles(by_id, out.errors);
}

}  // namespace simverify::framework::loader
