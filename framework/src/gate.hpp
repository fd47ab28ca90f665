#pragma once
// Internal: the releasability gate over a results folder (Def 5.17, 5.20).
//
// Def 5.17: a simulation is releasable iff every requirement meets its quality threshold at
// every grid point (or for every group when aggregated). We read "every requirement" as every
// *planned* one, so a run that was interrupted, sharded or stopped early is never releasable.
// Def 5.20: it is test ready when the tests exercise enough of the code; the project file sets
// the line and branch coverage bars.
#include "coverage.hpp"
#include "project_file.hpp"
#include "test_results.hpp"

#include <simverify/framework/component.hpp>

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {

// One criterion of the decision and whether it holds; `text` is a sentence for humans.
struct GateCheck {
  bool ok = false;
  std::string text;
};

// One requirement as the gate judged it: the recorded status, except that a pass its points do
// not support counts as failed (the reason says why). The report shows these, never its own.
struct RequirementVerdict {
  std::string id;
  std::string status;  // passed | failed | error | skipped
  std::string reason;
};

struct GateDecision {
  bool releasable = false;
  std::string project_file;  // the gate settings used; empty for the defaults
  std::vector<GateCheck> checks;
  std::optional<CoverageSummary> coverage;
  CoverageBars bars;  // the project file's, which the coverage was held to
  std::vector<RequirementVerdict> requirements;  // in results.json order
  bool tests_checked = false;                    // JUnit results were given
  bool coverage_checked = false;                 // a coverage bar was set
  // "RELEASABLE (every requirement passed and coverage meets the bars)" or "NOT RELEASABLE":
  // what the decision means, in words.
  [[nodiscard]] std::string verdict() const;
  // The failing checks' sentences (why not releasable); empty when releasable.
  [[nodiscard]] std::vector<std::string> reasons() const;
  // {"releasable", "project_file", "checks": [{"ok","text"}], "coverage": {"file", "line":
  //  {"covered", "total", "percent", "text"}|null, "branch": ...}|null,
  //  "requirements": [{"id","status","reason"}]}
  [[nodiscard]] std::string to_json() const;
};

// `percent` as the gate shows it ("83.4%"): beside a bar with as many decimals as it takes to
// read on the side of the bar it is on (79.996 against 80 is "79.996%", never "80.0%").
[[nodiscard]] std::string shown_percent(double percent, const std::optional<double>& bar);

struct RunSources;  // source_check.hpp

// The decision over the text of a results.json; throws std::runtime_error when it is not a
// simverify.results/1 document. `tests`: JUnit results; any failed or errored test blocks.
// `sources`: the requirement files the run was made from, loaded again, to hold the results to
// (source_check.hpp); null: not checked.
[[nodiscard]] GateDecision evaluate_gate(const std::string& results_text,
                                         const std::string& results_label,
                                         const ProjectFile& project,
                                         const std::optional<CoverageSummary>& coverage,
                                         const std::vector<TestResults>& tests = {},
                                         const RunSources* sources = nullptr);

// What `gate` and `report` read besides the results folder.
struct GateInputs {
  std::optional<std::string> coverage_file;  // --coverage
  std::optional<std::string> config_file;    // --config
  std::vector<std::string> test_files;       // --tests (JUnit XML), repeatable
  // --requirements, repeatable: the files and folders the run was made from, instead of the
  // ones results.json records.
  std::vector<std::string> requirement_paths;
  // --recheck N|all: points of each passed requirement re-evaluated at random (recheck.hpp);
  // 0: none, SIZE_MAX: all.
  std::size_t recheck = 0;
  // --timeout S: seconds one re-evaluated point may take before it is an error (a point that
  // hangs now fails its requirement instead of holding the gate up for ever); 0: none.
  double recheck_timeout_seconds = 0.0;
  std::ostream* progress = nullptr;  // where --recheck says what it evaluates (null: nowhere)
};

// Reads DIR/results.json, the coverage file, the JUnit files and the project file; throws
// std::runtime_error when any of them is missing or malformed (the message names file and
// line). The project file is found deterministically, never from the working directory:
// --config FILE, else the simverify.yaml of a --requirements folder (project_file_beside),
// else the one the run recorded in results.json ("plan": {"project_file"}), else none (no
// level or coverage bar). The requirement files are loaded again, with
// `registry`, from --requirements or the paths results.json records ("plan": {"sources"}); a
// file that records none fails the decision (it cannot be held to its requirements).
[[nodiscard]] GateDecision decide_gate(const std::filesystem::path& results_dir,
                                       const GateInputs& inputs, const ComponentRegistry& registry);

}  // namespace simverify::framework
