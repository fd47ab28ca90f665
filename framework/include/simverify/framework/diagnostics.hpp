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

// " (did you mean 'x'?)" for the closest of `candidates` within a small edit distance, else
// "": the hint every error about an unknown name carries.
[[nodiscard]] std::string did_you_mean(std::string_view word,
                                       const std::vector<std::string>& candidates);

}  // namespace simverify::framework
