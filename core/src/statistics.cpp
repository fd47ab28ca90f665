#include <simverify/core/statistics.hpp>

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace simverify::core {
namespace {

void require_at_least(std::span<const double> values, std::size_t n, const char* what) {
  if (values.size() < n) {
    throw std::invalid_argument(std::string(what) + " needs at least " + std::to_string(n) +
                                " value(s), got " + std::to_string(values.size()));
  }
}

}  // namespace

double mean(std::span<const double> values) {
  require_at_least(values, 1, "mean");
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double sample_variance(std::span<const double> values) {
  require_at_least(values, 2, "sample variance");
  const double m = mean(values);
  double sum = 0.0;
  for (const double x : values) sum += (x - m) * (x - m);
  return sum / static_cast<double>(values.size() - 1);
}

double sample_std(std::span<const double> values) {
  return std::sqrt(sample_variance(values));
}

Interval confidence_interval(std::span<const double> values, double level) {
  if (!(level > 0.0 && level < 1.0)) {
    throw std::invalid_argument("confidence level must lie in (0, 1), got " +
                                std::to_string(level));
  }
  require_at_least(values, 2, "a confidence interval");
  const boost::math::students_t t_dist(static_cast<double>(values.size() - 1));
  const double t = boost::math::quantile(t_dist, 1.0 - (1.0 - level) / 2.0);
  const double half = t * sample_std(values) / std::sqrt(static_cast<double>(values.size()));
  const double m = mean(values);
  return {m - half, m + half};
}

std::vector<double> sorted_copy(std::span<const double> values) {
  std::vector<double> s(values.begin(), values.end());
  std::sort(s.begin(), s.end());
  return s;
}

double quantile_of_sorted(std::span<const double> sorted, double q) {
  require_at_least(sorted, 1, "a quantile");
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("quantile q must lie in [0, 1]");
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

double quantile(std::span<const double> values, double q) {
  return quantile_of_sorted(sorted_copy(values), q);
}

double least_squares_slope(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size()) throw std::logic_error("least-squares slope: x and y differ in size");
  require_at_least(x, 2, "a least-squares slope");
  const double mx = mean(x);
  const double my = mean(y);
  double sxy = 0.0;
  double sxx = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  if (sxx == 0.0) throw std::invalid_argument("a least-squares slope needs distinct x values");
  return sxy / sxx;
}

}  // namespace simverify::core
