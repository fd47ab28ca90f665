// Statistics against values computed independently (closed forms and SciPy, quoted).
#include <simverify/framework/statistics.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using simverify::framework::compute_statistic;
using simverify::framework::Statistic;

namespace {
const std::vector<double> kSample = {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0};
}

TEST(Statistics, MeanMedianAndSampleStd) {
  EXPECT_DOUBLE_EQ(compute_statistic(*Statistic::parse("mean"), kSample), 5.0);
  EXPECT_DOUBLE_EQ(compute_statistic(*Statistic::parse("median"), kSample), 4.5);
  // Sum of squared deviations is 32; divisor n - 1 = 7 (Def 4.17 eq. 4.3).
  EXPECT_NEAR(compute_statistic(*Statistic::parse("std"), kSample), std::sqrt(32.0 / 7.0), 1e-15);
}

TEST(Statistics, RangeIsTheSpreadOfTheGroup) {
  // max 9 - min 2; for back-to-back groups of two models it is their distance.
  EXPECT_DOUBLE_EQ(compute_statistic(*Statistic::parse("range"), kSample), 7.0);
  const std::vector<double> diagram_vs_builtin = {1.25, 1.25 + 3e-12};
  EXPECT_NEAR(compute_statistic(*Statistic::parse("range"), diagram_vs_builtin), 3e-12, 1e-15);
  EXPECT_EQ(compute_statistic(*Statistic::parse("range"), std::vector<double>{-4.0}), 0.0);
  EXPECT_EQ(Statistic::parse(" range ")->str(), "range");
}

TEST(Statistics, ConfidenceBoundUsesStudentT) {
  // scipy.stats.t.ppf(0.975, 7) = 2.3646242510102993; half width t * s / sqrt(8).
  // SciPy (cephes) and Boost.Math invert the t CDF iteratively; they agree to ~3e-10
  // relative, so 1e-9 separates a correct quantile from a wrong one (z would give 1.96).
  const double half = 2.3646242510102993 * std::sqrt(32.0 / 7.0) / std::sqrt(8.0);
  EXPECT_NEAR(compute_statistic(*Statistic::parse("ci_upper(0.95)"), kSample), 5.0 + half, 1e-9);
  EXPECT_NEAR(compute_statistic(*Statistic::parse("ci_lower(0.95)"), kSample), 5.0 - half, 1e-9);
}

TEST(Statistics, QuantileInterpolatesLinearly) {
  // numpy.quantile(kSample, 0.9) = 7.6 (type 7).
  EXPECT_NEAR(compute_statistic(*Statistic::parse("quantile(0.9)"), kSample), 7.6, 1e-12);
  EXPECT_DOUBLE_EQ(compute_statistic(*Statistic::parse("fraction(<= 4)"), kSample), 0.5);
}

TEST(Statistics, OrderIsTheLogLogSlope) {
  // e = 3 h^4 exactly: the fitted slope is 4 up to round-off.
  std::vector<double> h = {0.1, 0.05, 0.025}, e;
  for (double x : h) e.push_back(3 * std::pow(x, 4));
  EXPECT_NEAR(compute_statistic(*Statistic::parse("order"), e, h), 4.0, 1e-12);
  const std::vector<double> zero_error = {1.0, 0.0}, axis = {0.1, 0.2};
  EXPECT_THROW((void)compute_statistic(*Statistic::parse("order"), zero_error, axis),
               std::invalid_argument);
}
