#pragma once
// Internal: whether a requirement that results.json records as passed really passed. A results
// file edited by hand or written by a buggy merge must not pass a requirement its points fail:
// `gate` (Def 5.17) and `diff` (a regression hidden by a forged pass) both ask here.
#include "results_file.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace simverify::framework {

// Why the entry `r`, recorded as passed, did not pass; nothing when it did. Every grid point must
// have been evaluated and met the threshold (each group when aggregated), and its points,
// decided again exactly as the runner decides them (retally.hpp), must say passed, and each
// point's value must be what its recorded measures give: with `results_dir`, also a measure
// kept as a series CSV beside results.json (recorded_measure.hpp), which must then be readable.
// `label` names the file and requirement in errors; throws std::runtime_error when the entry's
// points cannot be read.
[[nodiscard]] std::optional<std::string> unsupported_pass(
    const ResultsJson& r, const std::string& label,
    const std::filesystem::path* results_dir = nullptr);

// Why the entry `r`, recorded as failed, did not fail: its points, decided again, say passed (a
// baseline edited so that a regression looks old). Nothing otherwise.
[[nodiscard]] std::optional<std::string> unsupported_failure(const ResultsJson& r,
                                                             const std::string& label);

// Why a point of the entry `r` records a value its measures do not give (read as
// unsupported_pass reads them); nothing when each value is theirs or the file cannot tell.
// Whatever the entry's status and however few of the grid's points it holds: `merge` asks it of
// each shard's entries, whose points are part of a grid. Throws std::runtime_error naming
// `label` when the points cannot be read.
[[nodiscard]] std::optional<std::string> recorded_value_disagrees(
    const ResultsJson& r, const std::string& label,
    const std::filesystem::path* results_dir = nullptr);

}  // namespace simverify::framework
