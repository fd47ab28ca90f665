#include "located_errors.hpp"

#include "detail/text.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace simverify::framework::yaml {

SourceLocation LocatedErrors::where(const YAML::Mark& mark) const {
  return {file_, mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0};
}

void LocatedErrors::error(const SourceLocation& at, std::string message) {
  add({at, std::move(message)});
}

void LocatedErrors::add(Diagnostic diagnostic) {
  if (!reported_.insert(diagnostic.str()).second) {
    ++repeated_;
    return;
  }
  sink_.push_back(std::move(diagnostic));
}

void LocatedErrors::check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                               const std::string& what) {
  for (const auto& entry : map) {
    const std::string key = entry.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      error(entry.first, fmt::format("unknown key '{}' in {}{}; expected one of: {}", key, what,
                                     detail::did_you_mean(key, allowed), detail::join(allowed)));
    }
  }
}

std::optional<std::string> LocatedErrors::required_string(const YAML::Node& map, const char* key) {
  const YAML::Node node = map[key];
  if (!node) {
    error(map, fmt::format("missing `{}:`", key));
    return std::nullopt;
  }
  if (!node.IsScalar() || node.Scalar().empty()) {
    error(node, fmt::format("`{}:` must be a non-empty string", key));
    return std::nullopt;
  }
  return node.Scalar();
}

}  // namespace simverify::framework::yaml
