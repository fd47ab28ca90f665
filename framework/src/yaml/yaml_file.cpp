#include <simverify/framework/yaml_file.hpp>

#include "yaml/document.hpp"
#include "yaml/file_text.hpp"
#include "yaml/located_errors.hpp"

namespace simverify::framework {

std::optional<std::string> read_yaml_file_text(const std::filesystem::path& path,
                                               std::string_view what, Diagnostics& errors) {
  return yaml::read_file_text(path, what, errors);
}

std::optional<YAML::Node> parse_yaml_text(const std::string& text, const std::string& file,
                                          Diagnostics& errors) {
  yaml::LocatedErrors located(file, errors);
  return yaml::read_document(text, located);
}

bool is_text_scalar(const YAML::Node& node) {
  return node.IsScalar() && (node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str");
}

}  // namespace simverify::framework
