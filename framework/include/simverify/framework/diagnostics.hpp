#pragma once
// Errors found while loading requirement files: each names file, line and column and says
// what was expected.
#include <simverify/framework/value.hpp>

#include <string>
#include <vector>

namespace simverify::framework {

struct Diagnostic {
  SourceLocation location;
  std::string message;
  [[nodiscard]] std::string str() const;  // "file:line:col: error: message"
};

using Diagnostics = std::vector<Diagnostic>;

}  // namespace simverify::framework
