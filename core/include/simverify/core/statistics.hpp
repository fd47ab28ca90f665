#pragma once
// Summary statistics of a sample (Def 4.17), shared by the simulation layer's data processing
// and the framework's `aggregate:` statistics. Every function throws std::invalid_argument
// when the sample is too small for it, naming what needed more values.
#include <span>
#include <vector>

namespace simverify::core {

// Def 4.17 eq. (4.2).
[[nodiscard]] double mean(std::span<const double> values);
// Def 4.17 eq. (4.3): divisor n - 1. Needs at least two values.
[[nodiscard]] double sample_variance(std::span<const double> values);
[[nodiscard]] double sample_std(std::span<const double> values);

struct Interval {
  double lower = 0.0;
  double upper = 0.0;
};

// Def 4.17 eq. (4.4): mean +- t(n - 1, 1 - alpha/2) s / sqrt(n) with confidence level
// 1 - alpha (e.g. 0.95). The lecture prints S(R) in (4.4); the interval needs the standard
// deviation s = sqrt(S(R)), which is what is used here.
[[nodiscard]] Interval confidence_interval(std::span<const double> values, double level);

// Linear interpolation between order statistics (Hyndman-Fan type 7, numpy's default),
// q in [0, 1]; the second form takes values already sorted ascending.
[[nodiscard]] double quantile(std::span<const double> values, double q);
[[nodiscard]] double quantile_of_sorted(std::span<const double> sorted, double q);
[[nodiscard]] std::vector<double> sorted_copy(std::span<const double> values);

// Slope of the least-squares line through (x_i, y_i); needs two distinct x.
[[nodiscard]] double least_squares_slope(std::span<const double> x, std::span<const double> y);

}  // namespace simverify::core
