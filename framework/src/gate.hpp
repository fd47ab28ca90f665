#pragma once
// Internal: the releasability gate over a results folder (Def 5.17, 5.20).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {

struct GateDecision {
  bool releasable = false;
  std::vector<std::string> reasons;  // why (each a sentence), passing or not
};

// Reads DIR/results.json; throws std::runtime_error when it is missing or malformed.
[[nodiscard]] GateDecision decide_gate(const std::filesystem::path& results_dir,
                                       const std::optional<std::string>& coverage_file,
                                       const std::optional<std::string>& config_file);

}  // namespace simverify::framework
