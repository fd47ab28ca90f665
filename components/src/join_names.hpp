#pragma once
// Lists of names in error messages: "a, b, c".
#include <string>
#include <vector>

namespace simverify::components {

// "a, b, c"; an empty string for no names.
inline std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// As join_names, "none" for no names (a message saying what is known).
inline std::string join_names_or_none(const std::vector<std::string>& names) {
  return names.empty() ? "none" : join_names(names);
}

}  // namespace simverify::components
