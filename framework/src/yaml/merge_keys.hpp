#pragma once
// Internal: YAML's merge key, `<<: *common` (yaml.org/type/merge.html, as GitLab CI reads it),
// which yaml-cpp keeps as a plain key. A mapping's `<<` takes a mapping or a list of them;
// their entries join the mapping where `<<` stood, unless the mapping has the key itself
// (an earlier mapping of the list wins over a later one). Entries keep their nodes, so an
// error about a merged value points where the anchor wrote it.
#include "located_errors.hpp"

#include <yaml-cpp/yaml.h>

namespace simverify::framework::yaml {

// Expands every `<<` in the tree, in place. A `<<` holding something other than mappings, or
// merging the mapping it stands in, is an error in `errors` and is dropped, so the rest of
// the file is checked in the same pass.
void expand_merge_keys(YAML::Node& root, LocatedErrors& errors);

}  // namespace simverify::framework::yaml
