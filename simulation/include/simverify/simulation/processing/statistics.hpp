#pragma once
// Summation of a replication to its statistical properties (Def 4.10, 4.17, 4.19): mean,
// sample variance, Student-t confidence interval, quartiles, Tukey fences and box plots.
#include <simverify/core/statistics.hpp>

#include <span>
#include <vector>

namespace simverify::simulation::processing {

// mean (Def 4.17 eq. 4.2), sample variance and standard deviation (eq. 4.3, divisor n - 1),
// the Student-t confidence interval (eq. 4.4) and quantiles (Hyndman-Fan type 7) are the
// core library's (simverify/core/statistics.hpp), shared with the framework's aggregates.
using core::confidence_interval;
using core::Interval;
using core::mean;
using core::quantile;
using core::sample_std;
using core::sample_variance;

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
