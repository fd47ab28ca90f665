#include <simverify/simulation/analysis/scenario.hpp>

#include <boost/math/tools/toms748_solve.hpp>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace simverify::simulation::analysis {

ScenarioSummary scenarios(const std::vector<double>& values, std::size_t base, Better better) {
  if (values.empty()) throw std::invalid_argument("scenario analysis needs at least one scenario");
  if (base >= values.size()) throw std::invalid_argument("base scenario index out of range");
  ScenarioSummary s;
  s.base = base;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::isnan(values[i])) {
      throw std::invalid_argument("scenario " + std::to_string(i) + " has a NaN measure");
    }
    const bool is_better =
        better == Better::lower ? values[i] < values[s.best] : values[i] > values[s.best];
    const bool is_worse =
        better == Better::lower ? values[i] > values[s.worst] : values[i] < values[s.worst];
    if (is_better) s.best = i;
    if (is_worse) s.worst = i;
  }
  s.worst_value = values[s.worst];
  s.base_value = values[s.base];
  s.best_value = values[s.best];
  return s;
}

double switching_value(const std::function<double(double)>& measure, double a, double b,
                       double level, double tolerance) {
  const double fa = measure(a) - level;
  const double fb = measure(b) - level;
  if (fa == 0.0) return a;
  if (fb == 0.0) return b;
  if ((fa > 0) == (fb > 0)) {
    throw std::invalid_argument("no switching value in [" + std::to_string(a) + ", " +
                                std::to_string(b) + "]: the measure stays on one side of " +
                                std::to_string(level));
  }
  if (a > b) return switching_value(measure, b, a, level, tolerance);
  // TOMS 748 (Alefeld, Potra, Shi 1995; Boost.Math): a bracketing method that keeps the
  // sign change like bisection but converges superlinearly on smooth measures, so a
  // switching value of a whole simulation costs a handful of runs instead of ~40.
  const auto shifted = [&](double x) { return measure(x) - level; };
  const auto narrow_enough = [tolerance](double lo, double hi) { return hi - lo <= tolerance; };
  std::uintmax_t max_iterations = 200;
  const auto [lo, hi] =
      boost::math::tools::toms748_solve(shifted, a, b, fa, fb, narrow_enough, max_iterations);
  return 0.5 * (lo + hi);
}

}  // namespace simverify::simulation::analysis
