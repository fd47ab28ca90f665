#include <simverify/framework/diagnostics.hpp>

namespace simverify::framework {

std::string Diagnostic::str() const {
  return location.str() + ": error: " + message;
}

}  // namespace simverify::framework
