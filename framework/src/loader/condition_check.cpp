#include "condition_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
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
// passes) the first the message names, else the first in document order. When the message
// names no such axis but quotes one with its value ("h = 1.0002 is larger than tf - t0",
// where without h a fixed-step method lacks its step), that one: it is what the message is
// about. Nothing when no single axis is to blame.
struct Misfit {
  SourceLocation at;
  const Axis* axis = nullptr;
};

std::optional<Misfit> misfit_axis(const ConditionCheck& check, const Grid& grid, std::size_t index,
                                  std::string_view problem) {
  std::optional<Misfit> first, named;
  for (std::size_t g = 0; g < grid.groups().size(); ++g) {
    for (const Axis& suspect : grid.groups()[g].axes) {
      if (!check.reads(suspect.name)) continue;
      const Value& value = suspect.values[grid.position(index, g)];
      const Misfit at{value.location.line > 0 ? value.location : suspect.location, &suspect};
      if (!named && names_axis(problem, suspect.name + " =")) named = at;
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
      if (names_axis(problem, suspect.name)) return at;
      if (!first) first = at;
    }
  }
  return named ? named : first;
}

// A logspace written with values instead of exponents ({logspace: [1e-4, 1e-2, 5]} is
// 10^0.0001 .. 10^0.01, about 1): the exponents it was meant to have.
std::string logspace_hint(const Axis& axis) {
  if (!axis.generator || !axis.generator->is_map()) return "";
  const Value* args = axis.generator->find("logspace");
  if (args == nullptr || !args->is_list() || args->as_list().size() != 3) return "";
  const auto& list = args->as_list();
  if (!list[0].is_number() || !list[1].is_number() || !list[2].is_number()) return "";
  const double a = list[0].as_number(), b = list[1].as_number();
  if (!(a > 0.0 && a < 1.0 && b > 0.0 && b < 1.0)) return "";
  return fmt::format(
      " ({} comes from {}, and logspace takes exponents: {{logspace: [{:g}, {:g}, "
      "{:g}]}} for {:g}..{:g})",
      axis.name, axis.generator->str(), std::log10(a), std::log10(b), list[2].as_number(), a, b);
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
      const auto misfit = misfit_axis(check, grid, i, *problem);
      const std::string hint = misfit ? logspace_hint(*misfit->axis) : "";
      return Diagnostic{
          misfit ? misfit->at : conditions,
          (values.empty() ? *problem : fmt::format("conditions ({}): {}", values, *problem)) +
              hint};
    }
  }
  return std::nullopt;
}

}  // namespace simverify::framework::loader
