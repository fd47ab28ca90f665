#include "located_errors.hpp"

#include "detail/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace simverify::framework::yaml {

SourceLocation LocatedErrors::where(const YAML::Mark& mark) const {
  return {file_, mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0};
}

void LocatedErrors::error(const SourceLocation& at, std::string message) {
  sink_.push_back({at, std::move(message)});
}

bool LocatedErrors::check_unique_keys(const YAML::Node& map, const std::string& what) {
  std::map<std::string, YAML::Mark> seen;
  bool ok = true;
  for (const auto& entry : map) {
    const std::string key = entry.first.Scalar();
    auto [it, inserted] = seen.emplace(key, entry.first.Mark());
    if (!inserted) {
      error(entry.first, fmt::format("duplicate key '{}' in {} (first at line {})", key, what,
                                     it->second.line + 1));
      ok = false;
    }
  }
  return ok;
}

void LocatedErrors::check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                               const std::string& what) {
  check_unique_keys(map, what);
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
