#pragma once
// Internal: a requirement's `conditions:` as its grid (Def 5.5): plain axes, `zip:` groups and
// generators, each axis checked by the component, the grid's size capped.
#include "yaml/located_errors.hpp"
#include "yaml/value_reader.hpp"

#include <simverify/framework/component.hpp>
#include <simverify/framework/requirement.hpp>

#include <yaml-cpp/yaml.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace simverify::framework::loader {

class ConditionsSection {
 public:
  // `runner_axes`: conditions the runner reads, not the component (the weight axis a weighted
  // aggregate names): accepted whatever the component knows, and handed to it in each point's
  // condition, which it ignores as it ignores any condition it does not read.
  ConditionsSection(yaml::LocatedErrors& errors, yaml::ValueReader& values,
                    std::set<std::string> runner_axes = {})
      : errors_(errors), values_(values), runner_axes_(std::move(runner_axes)) {}

  // Adds the axes of `node` to r.conditions; `component` (when known) checks each axis.
  void parse(const YAML::Node& node, Requirement& r, const Component* component);

  // Conditions that had errors, so `aggregate: over:` does not report them a second time as
  // unknown.
  [[nodiscard]] const std::set<std::string>& failed_axes() const { return failed_axes_; }

 private:
  std::optional<Axis> parse_axis(const YAML::Node& name_node, const YAML::Node& node,
                                 const Requirement& r, const Component* component);
  void parse_zip(const YAML::Node& node, Requirement& r, const Component* component);
  bool duplicate_axis(const Requirement& r, const std::string& name, const YAML::Node& key);
  bool grid_within_limit(const YAML::Node& key, const Requirement& r);
  void report_unknown_axes(const Requirement& r, const Component& component);

  yaml::LocatedErrors& errors_;
  yaml::ValueReader& values_;
  std::set<std::string> runner_axes_;
  std::set<std::string> failed_axes_;
  // Condition names the component does not know and has a hint for (Component::hint_axis),
  // reported once the other conditions, which the hint reads, are parsed.
  std::vector<std::pair<SourceLocation, std::string>> unknown_axes_;
};

}  // namespace simverify::framework::loader
