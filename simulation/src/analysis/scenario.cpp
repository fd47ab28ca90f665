#include <simverify/simulation/analysis/scenario.hpp>

#include <cmath>
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
  double fa = measure(a) - level;
  const double fb = measure(b) - level;
  if (fa == 0.0) return a;
  if (fb == 0.0) return b;
  if ((fa > 0) == (fb > 0)) {
    throw std::invalid_argument("no switching value in [" + std::to_string(a) + ", " +
                                std::to_string(b) + "]: the measure stays on one side of " +
                                std::to_string(level));
  }
  while (std::abs(b - a) > tolerance) {
    const double m = 0.5 * (a + b);
    const double fm = measure(m) - level;
    if (fm == 0.0) return m;
    if ((fm > 0) == (fa > 0)) {
      a = m;
      fa = fm;
    } else {
      b = m;
    }
  }
  return 0.5 * (a + b);
}

}  // namespace simverify::simulation::analysis
