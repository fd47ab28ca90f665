#include <simverify/framework/diagnostics.hpp>

#include "detail/text.hpp"

namespace simverify::framework {

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  return detail::did_you_mean(word, candidates);
}

std::string Diagnostic::str() const {
  return location.str() + ": error: " + message;
}

}  // namespace simverify::framework
