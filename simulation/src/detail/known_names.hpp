#pragma once
// Internal: the "unknown X 'y'; known: a, b, c" message shared by the registries.
#include <stdexcept>
#include <string>
#include <vector>

namespace simverify::simulation::detail {

[[nodiscard]] inline std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

[[noreturn]] inline void throw_unknown(const std::string& what, const std::string& name,
                                       const std::vector<std::string>& known) {
  throw std::invalid_argument("unknown " + what + " '" + name + "'; known: " + join(known));
}

}  // namespace simverify::simulation::detail
