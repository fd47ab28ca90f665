// The weighted statistics (simverify/core/weighted_statistics.hpp) against an independent
// computation: integer weights k_i are the same as repeating x_i k_i times, so the weighted
// mean, distribution function and quantile equal the plain mean, share and inverted-cdf
// order statistic of the repeated sample. The paper-toss values by hand are in
// testsuites/unit/framework/weighted_aggregate_test.cpp.
#include <simverify/core/statistics.hpp>
#include <simverify/core/weighted_statistics.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace core = simverify::core;

namespace {

const std::vector<double> kValues{2.5, -1.0, 7.0, 0.5, 3.0};
const std::vector<double> kCounts{3.0, 1.0, 2.0, 4.0, 0.0};  // a zero weight drops x = 3

std::vector<double> repeated() {
  std::vector<double> out;
  for (std::size_t i = 0; i < kValues.size(); ++i) {
    for (int k = 0; k < static_cast<int>(kCounts[i]); ++k) out.push_back(kValues[i]);
  }
  return out;
}

TEST(CoreWeightedStatistics, IntegerWeightsEqualTheRepeatedSample) {
  const auto sample = repeated();  // 10 values
  const auto sorted = core::sorted_copy(sample);
  // The sums are of at most 10 terms of magnitude <= 7: a few ulp.
  EXPECT_NEAR(core::weighted_mean(kValues, kCounts), core::mean(sample), 1e-14);
  for (const double x : {-2.0, -1.0, 0.5, 2.5, 2.9, 7.0}) {
    const auto n = std::count_if(sample.begin(), sample.end(), [x](double v) { return v <= x; });
    EXPECT_NEAR(core::weighted_fraction_le(kValues, kCounts, x), static_cast<double>(n) / 10.0,
                1e-15)
        << x;
  }
  // inverted cdf: the order statistic of rank ceil(q n).
  for (const double q : {0.05, 0.1, 0.15, 0.5, 0.55, 0.8, 0.81, 1.0}) {
    const auto rank = static_cast<std::size_t>(std::ceil(q * 10.0 - 1e-9));
    EXPECT_EQ(core::weighted_quantile(kValues, kCounts, q), sorted[rank - 1]) << q;
  }
}

TEST(CoreWeightedStatistics, WeightsAreNormalizedAndScaleFree) {
  const auto p = core::normalized_weights(kCounts);
  EXPECT_DOUBLE_EQ(p[0], 0.3);
  EXPECT_DOUBLE_EQ(p[3], 0.4);
  std::vector<double> scaled;
  for (const double w : kCounts) scaled.push_back(w * 1e-3);
  EXPECT_NEAR(core::weighted_mean(kValues, scaled), core::weighted_mean(kValues, kCounts), 1e-14);
}

TEST(CoreWeightedStatistics, RejectsBadWeights) {
  const std::vector<double> v{1.0, 2.0};
  EXPECT_THROW((void)core::weighted_mean(v, std::vector<double>{0.5, -0.1}), std::invalid_argument);
  EXPECT_THROW((void)core::weighted_mean(v, std::vector<double>{0.0, 0.0}), std::invalid_argument);
  EXPECT_THROW((void)core::weighted_mean(v, std::vector<double>{1.0, NAN}), std::invalid_argument);
  EXPECT_THROW((void)core::weighted_mean(v, std::vector<double>{1.0}), std::logic_error);
  EXPECT_THROW((void)core::weighted_quantile(v, std::vector<double>{1.0, 1.0}, 0.0),
               std::invalid_argument);
  EXPECT_THROW((void)core::weighted_mean(std::vector<double>{}, std::vector<double>{}),
               std::invalid_argument);
}

}  // namespace
