#include <simverify/simulation/processing/statistics.hpp>

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace simverify::simulation::processing {
namespace {

void require_at_least(std::span<const double> values, std::size_t n, const char* what) {
  if (values.size() < n) {
    throw std::invalid_argument(std::string(what) + " needs at least " + std::to_string(n) +
                                " value(s), got " + std::to_string(values.size()));
  }
}

std::vector<double> sorted_copy(std::span<const double> values) {
  std::vector<double> s(values.begin(), values.end());
  std::sort(s.begin(), s.end());
  return s;
}

double quantile_of_sorted(const std::vector<double>& s, double q) {
  const double pos = q * static_cast<double>(s.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, s.size() - 1);
  return s[lo] + (pos - static_cast<double>(lo)) * (s[hi] - s[lo]);
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
  for (double x : values) sum += (x - m) * (x - m);
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

double quantile(std::span<const double> values, double q) {
  require_at_least(values, 1, "a quantile");
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("quantile q must lie in [0, 1]");
  return quantile_of_sorted(sorted_copy(values), q);
}

double median(std::span<const double> values) {
  return quantile(values, 0.5);
}

Interval tukey_fences(std::span<const double> values, double k) {
  const auto s = sorted_copy(values);
  require_at_least(values, 1, "Tukey fences");
  const double q1 = quantile_of_sorted(s, 0.25);
  const double q3 = quantile_of_sorted(s, 0.75);
  return {q1 - k * (q3 - q1), q3 + k * (q3 - q1)};
}

std::vector<double> outliers(std::span<const double> values, double k) {
  const Interval fences = tukey_fences(values, k);
  std::vector<double> out;
  for (double x : values) {
    if (x < fences.lower || x > fences.upper) out.push_back(x);
  }
  return out;
}

BoxPlot box_plot(std::span<const double> values, double k) {
  require_at_least(values, 1, "a box plot");
  const auto s = sorted_copy(values);
  BoxPlot b;
  b.minimum = s.front();
  b.maximum = s.back();
  b.q1 = quantile_of_sorted(s, 0.25);
  b.median = quantile_of_sorted(s, 0.5);
  b.q3 = quantile_of_sorted(s, 0.75);
  const double lower = b.q1 - k * (b.q3 - b.q1);
  const double upper = b.q3 + k * (b.q3 - b.q1);
  b.lower_whisker = b.maximum;
  b.upper_whisker = b.minimum;
  for (double x : s) {
    if (x < lower || x > upper) {
      b.outliers.push_back(x);
    } else {
      b.lower_whisker = std::min(b.lower_whisker, x);
      b.upper_whisker = std::max(b.upper_whisker, x);
    }
  }
  return b;
}

}  // namespace simverify::simulation::processing
