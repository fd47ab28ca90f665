#include <simverify/framework/diagnostics.hpp>

#include "detail/text.hpp"

namespace simverify::framework {

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  return core::did_you_mean(word, candidates);
}

DiagnosticsError::DiagnosticsError(Diagnostics diagnostics)
    : std::runtime_error(diagnostics.empty() ? "invalid input" : diagnostics.front().str()),
      diagnostics_(std::move(diagnostics)) {}

std::string Diagnostic::str() const {
  return location.str() + ": error: " + message;
}

}  // namespace simverify::framework
