#pragma once
// Internal: results.json held to the requirement files it was run from (a gate criterion,
// Def 5.17). The gate loads the files the run recorded (`plan.sources`) again and compares:
//   - which requirements they plan (the recorded --level and --filter applied again): a failing
//     requirement cut from the file, its summary fixed up, is still missing;
//   - each recorded requirement's definition, the keys results.json writes before its points
//     (threshold, measure, compare, aggregate, grid shape ...): a loosened threshold;
//   - each point's condition with the grid's: a point moved to an easier condition;
//   - each passed point's value against the reference CSV a `compare:` reads, which
//     results.json names but does not hold: a reference changed since the run;
//   - the plan fingerprint (fingerprint.hpp), which also covers a component's own keys: a
//     requirement file changed since the run.
// A run narrowed by --level or --filter saw only part of the requirements: release_rules.hpp
// fails it; this says how many of the files' requirements it planned.
#include "gate.hpp"
#include "results_file.hpp"

#include <simverify/framework/requirement.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace simverify::framework {

// The requirement files loaded again; `described` names them in sentences.
struct RunSources {
  std::vector<Requirement> requirements;
  std::string described;
};

struct SourceFindings {
  // Of the run as a whole: narrowed, requirements missing, files changed since; or that all
  // agree.
  std::vector<GateCheck> checks;
  // Recorded requirements the files contradict, with why (the first difference); the gate does
  // not believe their passes.
  std::map<std::string, std::string> disputed;
  // When the run was narrowed: how many of the files' requirements it planned ("it planned 1
  // of the 2 requirement(s) in FILE"), for the gate's narrowing check (release_rules.hpp).
  std::string narrowed_detail;
};

// `results_dir`: where the series a `compare:` reads are stored (null: only inline measures).
[[nodiscard]] SourceFindings check_sources(const ResultsJson& doc, const RunSources& sources,
                                           const std::filesystem::path* results_dir = nullptr);

}  // namespace simverify::framework
