#pragma once
// Internal: results.json, the one definition of its format ("simverify.results/1", format
// page "Results"; schemas/simverify-results.schema.json describes the same keys). The JSON
// reporter writes it point by point; `merge`, `gate` and `report` read it through here, so a
// malformed, hostile or hand-edited file gets one set of checks and errors that name the file
// and the key.
#include <simverify/framework/component.hpp>
#include <simverify/framework/requirement.hpp>
#include <simverify/framework/results.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework {

inline constexpr std::string_view kResultsFormat = "simverify.results/1";
inline constexpr const char* kResultsFileName = "results.json";

using ResultsJson = nlohmann::ordered_json;

// A results.json that cannot be used: "FILE: KEY: what was expected" (exit 2).
struct ResultsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses the text of a results.json and checks every key the readers use has the type the
// format gives it; `label` names the file in errors.
[[nodiscard]] ResultsJson parse_results(std::string_view text, const std::string& label);

// Reads and parses DIR/results.json (a regular file only: never blocks on a FIFO).
[[nodiscard]] ResultsJson read_results(const std::filesystem::path& dir);

// Where the summary's counts (passed, failed, error, skipped) differ from the statuses of the
// requirements the file records, e.g. "1 failed, 0 recorded": requirements were cut from the
// file or added to it after the run. Empty when they agree; a count the summary lacks (a file
// written by hand) is not compared.
[[nodiscard]] std::string tally_mismatch(const ResultsJson& doc);

// Writing. The JSON reporter streams a document in pieces (points are written as they arrive)
// and `merge` writes the same pieces:
//   results_head, then per requirement {append_requirement_head, points, decided_keys,
//   "seconds"}, then results_tail.

// What "plan" records: which run this was and what it was run from, so that `gate` can load
// the same requirement files again and hold the results to them (source_check.hpp).
struct PlanRecord {
  std::string fingerprint;
  std::string project_file;          // the gate settings; empty: none (written as null)
  std::vector<std::string> sources;  // the files and folders given to `run`, absolute
  std::string level;                 // --level; empty: every level (null)
  std::string filter;                // --filter; empty: none (null)
};

// The plan a parsed results.json records (fields it lacks stay empty).
[[nodiscard]] PlanRecord plan_record(const ResultsJson& doc);

// `{"format": ..., "plan": {"fingerprint", "simverify", "project_file", "sources", "level",
// "filter"}, "requirements": [`.
[[nodiscard]] std::string results_head(const PlanRecord& plan);

// A figure as results.json lists it: its title and the file beside results.json.
struct FigureFile {
  std::string title;
  std::string file;  // relative to the results folder: figures/<id>/<k>.gv
};

// A requirement's keys known before it runs (id ... location, and its figures and units when
// it has any), ending with `"points": [`.
void append_requirement_head(std::string& o, const Requirement& r,
                             const std::vector<FigureFile>& figures = {},
                             const UnitMap& units = {});

// The keys of a requirement's entry that its file decides: `gate` holds them to the file
// (source_check.hpp) and `merge` every shard's entry to the others'. Not `location` (a moved
// file asks the same question), `units` or `figures` (the component's, not the requirement's).
inline constexpr std::array kDefinitionKeys = {
    "title",     "description", "level",      "component", "threshold", "measure",    "compare",
    "aggregate", "trace",       "depends_on", "grid_size", "axes",      "axis_groups"};

// The keys known when a requirement finished: point_count, status, worst, worst_point,
// reason and, when aggregated, groups.
[[nodiscard]] ResultsJson decided_keys(const RequirementResult& result, bool aggregated);

struct ResultsSummary {
  int passed = 0, failed = 0, errors = 0, skipped = 0;
  double seconds = 0;
  int jobs = 1;
  std::string shard;  // "I/N", empty when not sharded
  std::string fail_fast = "level";
  std::vector<std::string> merged_from;  // merge: the shard folders
  // Which run this was (`diff` and the report's "compared with" line): UTC start time and the
  // source commit, each empty when unknown (written as null).
  std::string started;
  std::string commit;
  bool releasable = false;
  bool complete = true;
};

// A value in the format's text style: ", " and ": " separators, numbers as their shortest
// exact text (4, not 4.0), NaN and infinities as null.
void append_value(std::string& o, const ResultsJson& value);

// `"summary": {...}, "releasable": ..., "complete": ...}` closing the document (after the
// requirements list was closed).
[[nodiscard]] std::string results_tail(const ResultsSummary& summary);

// A condition's number as the reporter writes it: a JSON number, or "nan", "inf", "-inf"
// (JSON has no such numbers); nothing for anything else.
[[nodiscard]] std::optional<double> condition_number(const ResultsJson& value);

}  // namespace simverify::framework
