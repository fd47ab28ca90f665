#pragma once
// Internal: the console ETA's memory of what each requirement cost per grid point, kept
// between runs on this machine (as CTest keeps its cost data), so a run into a new results
// folder is estimated from measured costs too, not only a rerun into the same one. Advisory:
// a missing, unreadable or tampered memory gives no priors, and a memory that cannot be
// written is left as it was; neither ever changes a run's results or exit code.
#include <simverify/framework/listener.hpp>
#include <simverify/framework/requirement.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace simverify::framework {

// $SIMVERIFY_COST_MEMORY (a file; empty: none), else $XDG_CACHE_HOME/simverify/costs.json,
// else $HOME/.cache/simverify/costs.json; nothing when none of them is set.
[[nodiscard]] std::optional<std::filesystem::path> cost_memory_file();

// Seconds per grid point remembered for the requirements (id -> cost), matched by id and
// requirement file, so two projects' "REQ-1" are not confused.
[[nodiscard]] std::map<std::string, double> remembered_costs(
    const std::filesystem::path& memory, std::span<const Requirement> requirements);

// At the end of a run, adds each finished requirement's cost per point to `memory` (at most
// kMaxRememberedRequirements entries, the least recently run dropped first).
[[nodiscard]] std::unique_ptr<RunListener> make_cost_recorder(std::filesystem::path memory);

inline constexpr std::size_t kMaxRememberedRequirements = 5000;

}  // namespace simverify::framework
