#pragma once
// Internal: YAML's merge key, `<<: *common` (yaml.org/type/merge.html, as GitLab CI reads it),
// which yaml-cpp keeps as a plain key. A mapping's `<<` takes a mapping or a list of them;
// their entries join the mapping where `<<` stood, unless the mapping has the key itself
// (an earlier mapping of the list wins over a later one). Entries keep their nodes, so an
// error about a merged value points where the anchor wrote it.
#include "located_errors.hpp"

#include <yaml-cpp/yaml.h>

namespace simverify::framework::yaml {

// Expands every `<<` in the tree, in place; false (with the errors) when a `<<` holds
// something other than mappings.
bool expand_merge_keys(YAML::Node& root, LocatedErrors& errors);

}  // namespace simverify::framework::yaml
