#pragma once
// Summation of a replication to its statistical properties (Def 4.10, 4.17, 4.19): mean,
// sample variance, Student-t confidence interval, quartiles, Tukey fences and box plots.
#include <span>
#include <vector>

namespace simverify::simulation::processing {

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

// Linear interpolation between order statistics (Hyndman-Fan type 7, numpy's default).
[[nodiscard]] double quantile(std::span<const double> values, double q);
[[nodiscard]] double median(std::span<const double> values);

// Tukey's fences (Def 4.17 eq. 4.7, Remark 4.18): [Q1 - k IQR, Q3 + k IQR].
[[nodiscard]] Interval tukey_fences(std::span<const double> values, double k = 1.5);
[[nodiscard]] std::vector<double> outliers(std::span<const double> values, double k = 1.5);

// Def 4.19: the five-number summary of a box plot, whiskers at the most extreme values inside
// the fences, and the outliers beyond them.
struct BoxPlot {
  double minimum = 0.0, q1 = 0.0, median = 0.0, q3 = 0.0, maximum = 0.0;
  double lower_whisker = 0.0, upper_whisker = 0.0;
  std::vector<double> outliers;
};
[[nodiscard]] BoxPlot box_plot(std::span<const double> values, double k = 1.5);

}  // namespace simverify::simulation::processing
