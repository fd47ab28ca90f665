#include "condition_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework::loader {
namespace {

// Whether `message` names `axis` as a word ("h = 0.01 does not divide ..." names h, not
// the h of "the sample time").
bool names_axis(std::string_view message, std::string_view axis) {
  const auto part_of_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
  };
  for (auto at = message.find(axis); at != std::string_view::npos;
       at = message.find(axis, at + 1)) {
    const std::size_t end = at + axis.size();
    if ((at == 0 || !part_of_name(message[at - 1])) &&
        (end == message.size() || !part_of_name(message[end]))) {
      return true;
    }
  }
  return false;
}

// Where to point when point `index` fails the component's check with `problem`: at the value
// of an axis it reads without which the point passes, the one that does not fit the others
// (x0 with three values for a two-state model, a parameter the model does not have). Of
// several such axes (h and sample_time that do not divide, where leaving out the method also
// passes) the first the message names, else the first in document order. Nothing when no
// single axis is to blame.
std::optional<SourceLocation> misfit_location(const ConditionCheck& check, const Grid& grid,
                                              std::size_t index, std::string_view problem) {
  std::optional<SourceLocation> first;
  for (std::size_t g = 0; g < grid.groups().size(); ++g) {
    for (const Axis& suspect : grid.groups()[g].axes) {
      if (!check.reads(suspect.name)) continue;
      Grid without;
      for (std::size_t h = 0; h < grid.groups().size(); ++h) {
        for (const Axis& axis : grid.groups()[h].axes) {
          if (&axis == &suspect) continue;
          without.add_group(
              AxisGroup{{Axis{axis.name, {axis.values[grid.position(index, h)]}, axis.location}}});
        }
      }
      try {
        if (check.check(without.point(0))) continue;
      } catch (const std::exception&) {
        continue;
      }
      const Value& value = suspect.values[grid.position(index, g)];
      const SourceLocation at = value.location.line > 0 ? value.location : suspect.location;
      if (names_axis(problem, suspect.name)) return at;
      if (!first) first = at;
    }
  }
  return first;
}

}  // namespace

// Once per distinct combination of the groups holding an axis the check reads (all other axes
// cannot change its answer), so a million-point grid over tolerances costs a handful of checks.
std::optional<Diagnostic> check_grid_points(const Requirement& r, const Component& component,
                                            const SourceLocation& conditions) {
  if (!component.check_condition) return std::nullopt;
  const ConditionCheck& check = *component.check_condition;
  const Grid& grid = r.conditions;
  std::vector<std::size_t> read_groups;
  for (std::size_t g = 0; g < grid.groups().size(); ++g) {
    const auto& axes = grid.groups()[g].axes;
    if (std::any_of(axes.begin(), axes.end(), [&](const Axis& a) { return check.reads(a.name); })) {
      read_groups.push_back(g);
    }
  }
  if (grid.size() == 0) return std::nullopt;
  // The combinations in grid order: a counter over the read groups' positions (the last
  // fastest), every other group at its first value.
  std::vector<std::size_t> at(read_groups.size(), 0);
  for (bool more = true; more;) {
    std::size_t i = 0;
    for (std::size_t k = 0; k < read_groups.size(); ++k) i += at[k] * grid.stride(read_groups[k]);
    more = false;
    for (std::size_t k = read_groups.size(); k-- > 0;) {
      if (++at[k] < grid.groups()[read_groups[k]].size()) {
        more = true;
        break;
      }
      at[k] = 0;
    }
    const Condition point = grid.point(i);
    std::optional<std::string> problem;
    try {
      problem = check.check(point);
    } catch (const std::exception& e) {
      problem = e.what();
    }
    if (problem) {
      std::string values;
      for (const auto& [axis, value] : point.entries()) {
        if (!check.reads(axis)) continue;
        values += fmt::format("{}{}: {}", values.empty() ? "" : ", ", axis, value->str());
      }
      return Diagnostic{
          misfit_location(check, grid, i, *problem).value_or(conditions),
          values.empty() ? *problem : fmt::format("conditions ({}): {}", values, *problem)};
    }
  }
  return std::nullopt;
}

}  // namespace simverify::framework::loader
