#include "document.hpp"

namespace simverify::framework::yaml {

std::optional<YAML::Node> read_document(const std::string& text, LocatedErrors& errors) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    errors.error(e.mark, "YAML syntax: " + e.msg);
    return std::nullopt;
  }
}

}  // namespace simverify::framework::yaml
