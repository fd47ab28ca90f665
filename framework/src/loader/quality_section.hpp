#pragma once
// Internal: a requirement's `quality:` (Def 5.4): the measure the component must produce, an
// optional `compare:` with a reference, an optional `aggregate:` over conditions, and the
// threshold.
#include "yaml/located_errors.hpp"
#include "yaml/value_reader.hpp"

#include <simverify/framework/component.hpp>
#include <simverify/framework/requirement.hpp>

#include <yaml-cpp/yaml.h>

#include <set>
#include <string>

namespace simverify::framework::loader {

// Fills r.quality from `node`; r.conditions must be parsed already (`aggregate: over:` names
// them). `failed_axes` are conditions whose errors were reported already.
void parse_quality(const YAML::Node& node, Requirement& r, const Component* component,
                   const std::set<std::string>& failed_axes, yaml::LocatedErrors& errors,
                   yaml::ValueReader& values);

}  // namespace simverify::framework::loader
