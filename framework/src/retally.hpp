#pragma once
// Internal: decides one requirement again from the points its results.json entry holds, with
// the runner's own tally (tally.hpp) and the grid's recorded shape (`axis_groups`): groups are
// grid positions, never equal condition values. `merge` decides a merged requirement with it
// and `gate` checks that a recorded verdict is what its points say — so neither can come out
// differently from the run.
#include "results_file.hpp"

#include <map>
#include <string>

namespace simverify::framework {

struct Retally {
  ResultsJson points;   // in index order, "quality" and "passed" recomputed
  ResultsJson decided;  // "point_count", "status", "worst", "worst_point", "reason"[, "groups"]
};

// `head`: the requirement's entry (threshold, aggregate, grid_size, axis_groups); `points`:
// its points by grid index. Throws ResultsError naming `id` when the entry cannot be decided.
[[nodiscard]] Retally retally(const ResultsJson& head, std::map<std::size_t, ResultsJson> points,
                              const std::string& id);

}  // namespace simverify::framework
