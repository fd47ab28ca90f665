#include <simverify/simulation/processing/statistics.hpp>

#include <algorithm>
#include <cmath>
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

using core::quantile_of_sorted;
using core::sorted_copy;

}  // namespace

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
