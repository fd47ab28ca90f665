#pragma once
// Internal: the one series `--series quality` (the default) keeps for a point, and the report
// plots (reports/plots.py, trajectory_figures): the series the quality reads, else the state
// trajectory, else, for a component without one (a program's own curves), the first series
// the point measured. The reporter applies it to a Measurement, recheck to a results.json
// point (in the same order: results.json keeps the measurement's).
#include <string>
#include <string_view>

namespace simverify::framework {

// `measures`: (name, measure) pairs; `is_series(measure)` says which are time series.
// Empty when the point measured no series.
template <class Measures, class IsSeries>
[[nodiscard]] std::string plotted_series(std::string_view quality_measure, const Measures& measures,
                                         IsSeries&& is_series) {
  std::string first;
  bool has_trajectory = false;
  for (const auto& [name, measure] : measures) {
    if (!is_series(measure)) continue;
    if (name == quality_measure) return std::string(name);
    has_trajectory = has_trajectory || name == "trajectory";
    if (first.empty()) first = name;
  }
  return has_trajectory ? std::string("trajectory") : first;
}

}  // namespace simverify::framework
