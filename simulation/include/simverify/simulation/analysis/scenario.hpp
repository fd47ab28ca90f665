#pragma once
// Scenario analysis (Def 4.26): worst, base and best case of a measure over a set of inputs,
// and the switching values where the behaviour changes from one to the other.
#include <functional>
#include <vector>

namespace simverify::simulation::analysis {

enum class Better { lower, higher };  // which direction of the measure is the best case

struct ScenarioSummary {
  std::size_t worst = 0, base = 0, best = 0;  // indices into the scenario set
  double worst_value = 0.0, base_value = 0.0, best_value = 0.0;
};

// `values[i]` is the measure of scenario i; `base` is the index of the most likely scenario.
[[nodiscard]] ScenarioSummary scenarios(const std::vector<double>& values, std::size_t base,
                                        Better better);

// The input in [a, b] where `measure` crosses `level` (a switching value): a bracketing
// sign change (TOMS 748), to `tolerance` in the input. Throws when measure - level has the same
// sign at both ends (no switch inside the interval).
[[nodiscard]] double switching_value(const std::function<double(double)>& measure, double a,
                                     double b, double level, double tolerance);

}  // namespace simverify::simulation::analysis
