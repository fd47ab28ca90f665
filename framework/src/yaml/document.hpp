#pragma once
// Internal: the text of one YAML file as a node tree, or located errors saying why not.
#include "located_errors.hpp"

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

namespace simverify::framework::yaml {

// The file's one document; nothing (with the reasons in `errors`) when it is not valid YAML,
// holds characters reports cannot (detail/encoding.hpp), or holds what a YAML tree drops silently:
// a key repeated in any mapping, at any depth, or a second document. An empty file is a null
// node: what that means is the caller's to say.
[[nodiscard]] std::optional<YAML::Node> read_document(const std::string& text,
                                                      LocatedErrors& errors);

}  // namespace simverify::framework::yaml
