#include "conditions_section.hpp"

#include "detail/text.hpp"
#include "generators.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace simverify::framework::loader {

void ConditionsSection::parse(const YAML::Node& node, Requirement& r, const Component* component) {
  if (!node.IsMap()) {
    errors_.error(node, "`conditions:` must be a mapping from condition names to values");
    return;
  }
  for (const auto& entry : node) {
    const std::string name = entry.first.Scalar();
    if (!entry.first.IsScalar() || name.empty()) {
      errors_.error(entry.first, "a condition name must be a non-empty string");
      continue;
    }
    if (name == "zip") {
      parse_zip(entry.second, r, component);
    } else if (auto axis = parse_axis(entry.first, entry.second, r, component)) {
      if (duplicate_axis(r, axis->name, entry.first)) continue;
      r.conditions.add_group(AxisGroup{{std::move(*axis)}});
    }
    if (!grid_within_limit(entry.first, r)) break;
  }
  if (component != nullptr) report_unknown_axes(r, *component);
}

// An unknown name may be what the other conditions know (`lambda: -1` for the model's
// parameter `p.lambda`): that hint first, else the nearest spelling of a condition.
void ConditionsSection::report_unknown_axes(const Requirement& r, const Component& component) {
  for (const auto& [location, name] : unknown_axes_) {
    std::string hint = component.hint_axis(name, r.conditions);
    if (hint.empty()) hint = detail::did_you_mean(name, component.info.axes);
    errors_.error(location,
                  fmt::format("component '{}' has no condition '{}'{}; known: {}",
                              component.info.name, name, hint, detail::join(component.info.axes)));
  }
  unknown_axes_.clear();
}

// `name_node` is the condition's name as written, `node` its value.
std::optional<Axis> ConditionsSection::parse_axis(const YAML::Node& name_node,
                                                  const YAML::Node& node, const Requirement& r,
                                                  const Component* component) {
  const std::string& name = name_node.Scalar();
  failed_axes_.insert(name);  // until it parsed
  Axis axis;
  axis.name = name;
  axis.location = errors_.where(node);
  // The aggregate's weight axis is the runner's: neither the component's name check nor its
  // value check applies.
  const bool runners =
      runner_axes_.contains(name) && component != nullptr && !component->accepts_axis(name);
  if (component != nullptr && !runners && !component->accepts_axis(name)) {
    if (component->hint_axis) {
      unknown_axes_.emplace_back(errors_.where(name_node), name);
      return std::nullopt;
    }
    errors_.error(name_node, fmt::format("component '{}' has no condition '{}'{}; known: {}",
                                         component->info.name, name,
                                         detail::did_you_mean(name, component->info.axes),
                                         detail::join(component->info.axes)));
    return std::nullopt;
  }
  const auto read = values_.read(node);
  if (!read) return std::nullopt;
  const Value& value = *read;
  if (value.is_list()) {
    axis.values = value.as_list();
    if (axis.values.empty()) {
      errors_.error(
          node,
          fmt::format("condition '{}' is an empty list: the grid would have no points", name));
      return std::nullopt;
    }
  } else if (generators::is_generator(value)) {
    auto expansion = generators::expand(value, r.id, name);
    if (expansion.error) {
      errors_.error(expansion.error_at.line > 0 ? expansion.error_at : errors_.where(node),
                    fmt::format("condition '{}': {}", name, *expansion.error));
      return std::nullopt;
    }
    // Generated values keep no location of their own (errors point at the generator): a
    // copy of the file name per value would dominate memory on million-point grids.
    axis.values = std::move(expansion.values);
    axis.generator = value;
  } else {
    // Any other mapping is one structured value (e.g. an input signal {step: {...}}), but a
    // near-miss of a generator name is far more likely a typo than a value.
    if (value.is_map() && !value.as_map().empty()) {
      const auto& key = value.as_map().front().first;
      const auto& known = generators::names();
      const auto hint = detail::did_you_mean(key, known);
      if (!hint.empty() && std::find(known.begin(), known.end(), key) == known.end()) {
        errors_.error(value.as_map().front().second.key_location(),
                      fmt::format("condition '{}': unknown generator '{}'{}", name, key, hint));
        return std::nullopt;
      }
    }
    axis.values = {value};
  }
  if (component != nullptr && component->check_axis && !runners) {
    for (const auto& v : axis.values) {
      if (auto problem = component->check_axis(name, v)) {
        // A place inside the value (`u: {road: {class: [B, C]}}`: the list) when the check
        // names one, else the value's own.
        const SourceLocation& where = problem->location ? *problem->location : v.location;
        std::string message = std::move(problem->message);
        // "u: ..." already says which condition.
        if (!message.starts_with(name + ": ")) {
          message = fmt::format("condition '{}': {}", name, message);
        }
        errors_.error(where.line > 0 ? where : axis.location, message);
        return std::nullopt;
      }
    }
  }
  if (name == "seed") {  // every component's: point_seed hands it on
    for (const auto& v : axis.values) {
      if (auto problem = seed_problem(v)) {
        errors_.error(v.location.line > 0 ? v.location : axis.location,
                      fmt::format("condition 'seed': {}", *problem));
        return std::nullopt;
      }
    }
  }
  failed_axes_.erase(name);
  return axis;
}

// A condition may appear once: both as a plain axis and inside `zip:` would be ambiguous.
bool ConditionsSection::duplicate_axis(const Requirement& r, const std::string& name,
                                       const YAML::Node& key) {
  if (const Axis* first = r.conditions.find_axis(name)) {
    errors_.error(key, fmt::format("condition '{}' is given twice (first at {})", name,
                                   first->location.str()));
    return true;
  }
  return false;
}

void ConditionsSection::parse_zip(const YAML::Node& node, Requirement& r,
                                  const Component* component) {
  if (!node.IsMap() || node.size() == 0) {
    errors_.error(node, "`zip:` must be a mapping of conditions that vary together, each a list");
    return;
  }
  AxisGroup group;
  for (const auto& entry : node) {
    auto axis = parse_axis(entry.first, entry.second, r, component);
    if (!axis) {
      // The zip is not added: each of its conditions is reported here, not again as unknown
      // by `aggregate: over:`.
      for (const auto& other : node) {
        if (other.first.IsScalar()) failed_axes_.insert(other.first.Scalar());
      }
      return;
    }
    if (entry.first.Scalar() == "zip") {
      errors_.error(entry.first, "`zip:` cannot be nested");
      return;
    }
    if (duplicate_axis(r, axis->name, entry.first)) return;
    if (!group.axes.empty() && axis->values.size() != group.axes.front().values.size()) {
      errors_.error(entry.second,
                    fmt::format("zip: '{}' has {} values but '{}' has {}; zipped conditions must "
                                "have equal lengths",
                                axis->name, axis->values.size(), group.axes.front().name,
                                group.axes.front().values.size()));
      return;
    }
    group.axes.push_back(std::move(*axis));
  }
  r.conditions.add_group(std::move(group));
}

// Generators cap each axis, but the grid is their product: a few large axes (or one axis
// aliased several times) would overflow its size, and checking or running it never ends.
// Checked after each condition, so at most two large axes are ever expanded.
bool ConditionsSection::grid_within_limit(const YAML::Node& key, const Requirement& r) {
  std::size_t points = 1;
  for (const auto& group : r.conditions.groups()) {
    if (points > generators::kMaxPoints / group.size()) {
      errors_.error(key, fmt::format("with condition '{}' the grid has more than {} points, the "
                                     "limit",
                                     key.Scalar(), generators::kMaxPoints));
      return false;
    }
    points *= group.size();
  }
  return true;
}

}  // namespace simverify::framework::loader
