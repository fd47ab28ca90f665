#include "point_description.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace simverify::framework {

bool is_over(const Requirement& r, const AxisGroup& g) {
  if (!r.quality.aggregate) return false;
  const auto& over = r.quality.aggregate->over;
  return std::any_of(g.axes.begin(), g.axes.end(), [&](const Axis& a) {
    return std::find(over.begin(), over.end(), a.name) != over.end();
  });
}

std::string describe_point(const Requirement& r, std::size_t index, bool group) {
  std::string out;
  const auto& groups = r.conditions.groups();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (group && is_over(r, groups[g])) continue;
    const std::size_t pos = r.conditions.position(index, g);
    for (const auto& a : groups[g].axes) {
      if (a.values.size() < 2) continue;
      if (!out.empty()) out += ", ";
      out += fmt::format("{}={}", a.name, a.values[pos].str());
    }
  }
  return out.empty() ? (group ? "the only group" : "the only grid point") : out;
}

}  // namespace simverify::framework
