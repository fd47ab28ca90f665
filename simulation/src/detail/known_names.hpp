#pragma once
// Internal: the "unknown X 'y'; known: a, b, c" message shared by the registries.
#include <stdexcept>
#include <string>
#include <vector>

#include <simverify/core/text.hpp>

namespace simverify::simulation::detail {

[[noreturn]] inline void throw_unknown(const std::string& what, const std::string& name,
                                       const std::vector<std::string>& known) {
  throw std::invalid_argument("unknown " + what + " '" + name + "'" +
                              core::did_you_mean(name, known) + "; known: " + core::join(known));
}

}  // namespace simverify::simulation::detail
