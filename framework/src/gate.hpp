#pragma once
// Internal: the releasability gate over a results folder (Def 5.17, 5.20).
//
// Def 5.17: a simulation is releasable iff every requirement meets its quality threshold at
// every grid point (or for every group when aggregated). We read "every requirement" as every
// *planned* one, so a run that was interrupted, sharded or stopped early is never releasable.
// Def 5.20: it is test ready when the tests exercise enough of the code; the project file sets
// the line and branch coverage bars.
#include "project_file.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {

struct CoverageFigure {
  double covered = 0;
  double total = 0;
  double percent = 0;  // 100 * covered / total, or as given when only a percentage is known
};

struct CoverageSummary {
  std::string file;
  std::optional<CoverageFigure> line;
  std::optional<CoverageFigure> branch;
};

// One criterion of the decision and whether it holds; `text` is a sentence for humans.
struct GateCheck {
  bool ok = false;
  std::string text;
};

struct GateDecision {
  bool releasable = false;
  std::string project_file;  // the gate settings used; empty for the defaults
  std::vector<GateCheck> checks;
  std::optional<CoverageSummary> coverage;
  // The failing checks' sentences (why not releasable); empty when releasable.
  [[nodiscard]] std::vector<std::string> reasons() const;
  // {"releasable", "project_file", "checks": [{"ok","text"}], "coverage": {...}|null}
  [[nodiscard]] std::string to_json() const;
};

// Parses a coverage summary: the JSON written by ci/coverage
// ({"line": {"covered", "total", "percent"}, "branch": {...}}), an lcov tracefile (.info) or
// a Cobertura XML report. Throws std::runtime_error naming `label` (and the line for lcov).
[[nodiscard]] CoverageSummary parse_coverage(const std::string& text, const std::string& label);
[[nodiscard]] CoverageSummary read_coverage(const std::filesystem::path& path);

// The decision over the text of a results.json; throws std::runtime_error when it is not a
// simverify.results/1 document.
[[nodiscard]] GateDecision evaluate_gate(const std::string& results_text,
                                         const std::string& results_label,
                                         const ProjectFile& project,
                                         const std::optional<CoverageSummary>& coverage);

// A results.json text as JSON, checked to be a simverify.results/1 document with a list of
// requirements; throws std::runtime_error naming `label` (line and column for broken JSON).
[[nodiscard]] nlohmann::json parse_results_document(const std::string& text,
                                                    const std::string& label);
// The text of DIR/results.json; throws std::runtime_error when it cannot be read.
[[nodiscard]] std::string read_results_text(const std::filesystem::path& results_dir);

// Reads DIR/results.json, the coverage file and the project file (`config_file`, else
// requirements/simverify.yaml when it exists); throws std::runtime_error when any of them is
// missing or malformed (the message names file and line).
[[nodiscard]] GateDecision decide_gate(const std::filesystem::path& results_dir,
                                       const std::optional<std::string>& coverage_file,
                                       const std::optional<std::string>& config_file);

// The project file used when --config is not given, relative to the working directory.
inline constexpr const char* kDefaultProjectFile = "requirements/simverify.yaml";

}  // namespace simverify::framework
