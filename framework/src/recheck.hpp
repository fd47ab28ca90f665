#pragma once
// Internal: `gate --recheck N|all`. The one thing the gate cannot check from the files alone is
// a point's measures: a point whose measures and value were edited together agrees with
// itself and with its requirement. Re-evaluating points with the component catches that. The
// points are drawn at random from the passed requirements (a tamperer cannot know which), in
// worker processes as the run evaluates them (process_executor.cpp).
#include "gate.hpp"
#include "results_file.hpp"
#include "source_check.hpp"

#include <simverify/framework/component.hpp>

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace simverify::framework {

struct RecheckFindings {
  std::vector<GateCheck> checks;
  std::map<std::string, std::string> disputed;  // requirement id -> why its pass is not believed
};

// Re-evaluates up to `per_requirement` points of every requirement recorded as passed (all of
// them when it is at least the grid's size) and compares each value, measure and stored series
// (the CSV beside results.json, under `results_dir`) with the recorded one
// (recheck_agreement.hpp).
// `timeout_seconds`: how long one point may take (0: no limit); a point over it is an error.
// `progress`: where to say how many points it evaluates before it starts (null: nowhere).
[[nodiscard]] RecheckFindings recheck_points(
    const ResultsJson& doc, const std::filesystem::path& results_dir, const RunSources& sources,
    const ComponentRegistry& registry, std::size_t per_requirement, double timeout_seconds = 0.0,
    std::ostream* progress = nullptr);

}  // namespace simverify::framework
