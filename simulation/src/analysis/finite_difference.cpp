#include <simverify/simulation/analysis/finite_difference.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace simverify::simulation::analysis {

Derivative central_difference(const std::function<double(double)>& f, double x, double noise) {
  const double eps = std::max(noise, std::numeric_limits<double>::epsilon());
  const double step = std::cbrt(eps) * std::max(std::abs(x), 1.0);
  auto central = [&](double s) { return (f(x + s) - f(x - s)) / (2.0 * s); };
  const double coarse = central(step);
  const double fine = central(step / 2.0);
  // Richardson: the O(s^2) term cancels in (4 fine - coarse) / 3.
  const double extrapolated = (4.0 * fine - coarse) / 3.0;
  if (!std::isfinite(coarse) || !std::isfinite(fine)) {
    throw std::runtime_error("finite difference: the function is not finite near x");
  }
  return {fine, step / 2.0, std::abs(fine - extrapolated)};
}

double normalized(double derivative, double x, double fx) {
  if (fx == 0.0) throw std::invalid_argument("normalized sensitivity: f(x) is zero");
  return derivative * x / fx;
}

}  // namespace simverify::simulation::analysis
