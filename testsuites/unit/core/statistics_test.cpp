// The core statistics both layers link (simverify/core/statistics.hpp), against values
// computed by hand or printed in tables.
#include <simverify/core/statistics.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace core = simverify::core;

namespace {

TEST(CoreStatistics, MeanVarianceAndStd) {
  const std::vector<double> v{1.0, 2.0, 3.0, 4.0, 5.0};
  EXPECT_DOUBLE_EQ(core::mean(v), 3.0);
  EXPECT_DOUBLE_EQ(core::sample_variance(v), 2.5);  // (4 + 1 + 0 + 1 + 4) / 4
  EXPECT_DOUBLE_EQ(core::sample_std(v), std::sqrt(2.5));
  EXPECT_THROW((void)core::mean(std::vector<double>{}), std::invalid_argument);
  EXPECT_THROW((void)core::sample_variance(std::vector<double>{1.0}), std::invalid_argument);
}

// t(4, 0.975) = 2.7764451 (any Student-t table); half width t s / sqrt(n).
TEST(CoreStatistics, ConfidenceIntervalUsesStudentT) {
  const std::vector<double> v{1.0, 2.0, 3.0, 4.0, 5.0};
  const auto ci = core::confidence_interval(v, 0.95);
  const double half = 2.7764451 * std::sqrt(2.5) / std::sqrt(5.0);
  EXPECT_NEAR(ci.lower, 3.0 - half, 1e-6);
  EXPECT_NEAR(ci.upper, 3.0 + half, 1e-6);
  EXPECT_THROW((void)core::confidence_interval(v, 1.5), std::invalid_argument);
}

// Hyndman-Fan type 7 (numpy.quantile's default): numpy.quantile([4, 1, 3, 2], 0.25) = 1.75.
TEST(CoreStatistics, QuantileInterpolatesOrderStatistics) {
  const std::vector<double> v{4.0, 1.0, 3.0, 2.0};
  EXPECT_DOUBLE_EQ(core::quantile(v, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(core::quantile(v, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(core::quantile(v, 1.0), 4.0);
  EXPECT_THROW((void)core::quantile(v, -0.1), std::invalid_argument);
}

TEST(CoreStatistics, LeastSquaresSlope) {
  // Exact line: the slope is recovered to round-off.
  const std::vector<double> x{0.0, 1.0, 2.0, 4.0};
  const std::vector<double> line{1.0, 4.0, 7.0, 13.0};
  EXPECT_NEAR(core::least_squares_slope(x, line), 3.0, 1e-14);
  // Scattered points (0, 0), (1, 1), (2, 0), (3, 2): mean x 1.5, mean y 0.75.
  const std::vector<double> xs{0.0, 1.0, 2.0, 3.0};
  const std::vector<double> ys{0.0, 1.0, 0.0, 2.0};
  // Sxx = 2.25 + 0.25 + 0.25 + 2.25 = 5; Sxy = (-1.5)(-0.75) + (-0.5)(0.25) + (0.5)(-0.75)
  // + (1.5)(1.25) = 1.125 - 0.125 - 0.375 + 1.875 = 2.5; slope 0.5.
  EXPECT_NEAR(core::least_squares_slope(xs, ys), 0.5, 1e-15);
  EXPECT_THROW((void)core::least_squares_slope(std::vector<double>{1.0, 1.0}, ys),
               std::logic_error);
  EXPECT_THROW(
      (void)core::least_squares_slope(std::vector<double>{1.0, 1.0}, std::vector<double>{0.0, 1.0}),
      std::invalid_argument);
}

}  // namespace
