#pragma once
// Errors found while loading requirement files: each names file, line and column and says
// what was expected.
#include <simverify/framework/value.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace simverify::framework {

struct Diagnostic {
  SourceLocation location;
  std::string message;
  [[nodiscard]] std::string str() const;  // "file:line:col: error: message"
};

using Diagnostics = std::vector<Diagnostic>;

// The errors of an input file that stop a command (a project file the gate needs): the
// command line prints each on a line of its own. what() is the first.
class DiagnosticsError : public std::runtime_error {
 public:
  explicit DiagnosticsError(Diagnostics diagnostics);
  [[nodiscard]] const Diagnostics& diagnostics() const { return diagnostics_; }

 private:
  Diagnostics diagnostics_;
};

// " (did you mean 'x'?)" for the closest of `candidates` within a small edit distance, else
// "": the hint every error about an unknown name carries.
[[nodiscard]] std::string did_you_mean(std::string_view word,
                                       const std::vector<std::string>& candidates);

}  // namespace simverify::framework
