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

// A requirement's points by grid index, read in place (a results file may hold millions).
using PointsByIndex = std::map<std::size_t, const ResultsJson*>;

// `head`: the requirement's entry (threshold, aggregate, grid_size, axis_groups); `points`:
// its points by grid index. Returns the decided keys: "point_count", "status", "worst",
// "worst_point", "reason"[, "groups"]. With `recomputed`, also appends the points to it in
// index order with "quality" and "passed" decided again (merge writes those). Throws
// ResultsError naming `id` when the entry cannot be decided.
[[nodiscard]] ResultsJson retally(const ResultsJson& head, const PointsByIndex& points,
                                  const std::string& id, ResultsJson* recomputed = nullptr);

}  // namespace simverify::framework
