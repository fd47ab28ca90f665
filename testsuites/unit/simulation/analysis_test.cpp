// Sensitivity, Monte Carlo and scenario analysis against closed forms.
#include <simverify/simulation/analysis/finite_difference.hpp>
#include <simverify/simulation/analysis/monte_carlo.hpp>
#include <simverify/simulation/analysis/scenario.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

namespace ana = simverify::simulation::analysis;

TEST(FiniteDifference, MatchesTheExactDerivativeOfSmoothFunctions) {
  // d/dx exp(-2x) sin(3x) at x = 0.7, exact by the product rule.
  auto f = [](double x) { return std::exp(-2 * x) * std::sin(3 * x); };
  const double x = 0.7;
  const double exact = std::exp(-2 * x) * (3 * std::cos(3 * x) - 2 * std::sin(3 * x));
  const auto d = ana::central_difference(f, x, std::numeric_limits<double>::epsilon());
  // Optimal central differences reach about eps^(2/3) ~ 4e-11 relative error.
  EXPECT_NEAR(d.value, exact, 1e-9);
  EXPECT_LT(d.error_estimate, 1e-8);
}

TEST(FiniteDifference, StepGrowsWithNoiseSoNoiseDoesNotDominate) {
  // A function known only to 1e-8 relative accuracy (like a simulation at rtol 1e-8):
  // the chosen step keeps the derivative error near noise^(2/3) ~ 5e-6, not noise / eps.
  auto f = [](double x) {
    const double noise = 1e-8 * std::sin(1e7 * x);  // non-smooth at the scale of the step
    return std::cos(x) * (1 + noise);
  };
  const auto d = ana::central_difference(f, 1.0, 1e-8);
  EXPECT_NEAR(d.value, -std::sin(1.0), 2e-5);
  EXPECT_GT(d.step, 1e-4);
}

TEST(FiniteDifference, NormalizedSensitivityIsTheElasticity) {
  // f = c x^3 has elasticity 3 everywhere.
  auto f = [](double x) { return 2.5 * x * x * x; };
  const auto d = ana::central_difference(f, 4.0, 1e-16);
  EXPECT_NEAR(ana::normalized(d.value, 4.0, f(4.0)), 3.0, 1e-8);
}

TEST(MonteCarlo, StreamsAreReproducibleAndDistinct) {
  EXPECT_EQ(ana::stream_seed(42, 7), ana::stream_seed(42, 7));
  std::set<std::uint64_t> seeds;
  for (std::uint64_t i = 0; i < 1000; ++i) seeds.insert(ana::stream_seed(42, i));
  EXPECT_EQ(seeds.size(), 1000u);
  EXPECT_NE(ana::stream_seed(1, 0), ana::stream_seed(2, 0));
}

TEST(MonteCarlo, ResultDoesNotDependOnTheNumberOfJobs) {
  auto measure = [](std::uint64_t seed) { return ana::unit_interval(seed); };
  const auto one = ana::monte_carlo(500, 3, measure, 0.95, 1);
  const auto two = ana::monte_carlo(500, 3, measure, 0.95, 2);
  EXPECT_EQ(one.samples, two.samples);
}

TEST(MonteCarlo, UniformSampleStatisticsMatchTheDistribution) {
  // U(0,1): mean 1/2, std 1/sqrt(12). With n = 20000 the standard error of the mean is
  // 0.0020; 5 standard errors (0.01) make a false failure practically impossible while a
  // biased generator (e.g. wrong bit shift) would fail.
  auto measure = [](std::uint64_t seed) { return ana::unit_interval(seed); };
  const auto r = ana::monte_carlo(20000, 11, measure);
  EXPECT_NEAR(r.mean, 0.5, 0.01);
  EXPECT_NEAR(r.std, 1 / std::sqrt(12.0), 0.01);
  EXPECT_LT(r.ci_lower, 0.5);
  EXPECT_GT(r.ci_upper, 0.5);
}

TEST(Scenario, WorstBaseBestAndSwitchingValue) {
  const std::vector<double> rms = {0.8, 1.2, 0.5, 2.0};
  const auto s = ana::scenarios(rms, 1, ana::Better::lower);
  EXPECT_EQ(s.best, 2u);
  EXPECT_EQ(s.worst, 3u);
  EXPECT_EQ(s.base_value, 1.2);
  // x^2 crosses 2 at sqrt(2).
  const double x = ana::switching_value([](double v) { return v * v; }, 0.0, 3.0, 2.0, 1e-12);
  EXPECT_NEAR(x, std::sqrt(2.0), 1e-12);
  EXPECT_THROW((void)ana::switching_value([](double v) { return v * v; }, 2.0, 3.0, 2.0, 1e-9),
               std::invalid_argument);
}

TEST(Scenario, SwitchingValueNeedsFarFewerEvaluationsThanBisection) {
  // exp(x) crosses 5 at ln 5. Bisection to 1e-12 on [0, 3] needs 42 evaluations; TOMS 748
  // converges superlinearly on a smooth measure (each evaluation is a simulation run).
  int evaluations = 0;
  const auto measure = [&](double v) {
    ++evaluations;
    return std::exp(v);
  };
  const double x = ana::switching_value(measure, 0.0, 3.0, 5.0, 1e-12);
  EXPECT_NEAR(x, std::log(5.0), 1e-12);
  EXPECT_LT(evaluations, 20);
  // The interval may be given from its right end (base case above the worst case's input).
  EXPECT_NEAR(ana::switching_value(measure, 3.0, 0.0, 5.0, 1e-12), std::log(5.0), 1e-12);
}

TEST(MonteCarlo, NormalDrawIsTheInverseDistributionFunction) {
  // Draw 0xF000000000000000 has probability 15/16 + 2^-54; scipy.stats.norm.ppf of it with
  // mean 1 and std 2 is 4.068241088705093 (testsuites/unit/components/monte_carlo_reference.py).
  // Boost's quantile is accurate to a few ulp.
  const auto normal = ana::Distribution::normal(1.0, 2.0);
  EXPECT_NEAR(normal.sample(0xF000000000000000ULL), 4.068241088705093, 1e-14);
  EXPECT_DOUBLE_EQ(normal.mean(), 1.0);
  EXPECT_DOUBLE_EQ(normal.std(), 2.0);
  // Uniform: an affine map of the unit interval; std (b - a)/sqrt(12).
  const auto uniform = ana::Distribution::uniform(-2.0, 6.0);
  EXPECT_DOUBLE_EQ(uniform.sample(0x8000000000000000ULL), 2.0);
  EXPECT_DOUBLE_EQ(uniform.sample(0), -2.0);
  EXPECT_DOUBLE_EQ(uniform.std(), 8.0 / std::sqrt(12.0));
  EXPECT_THROW((void)ana::Distribution::uniform(1.0, 0.0), std::invalid_argument);
  EXPECT_THROW((void)ana::Distribution::normal(0.0, 0.0), std::invalid_argument);
}

TEST(MonteCarlo, NormalDrawsFollowTheDistribution) {
  // 20000 draws of N(3, 0.5): the standard error of the mean is 0.0035 and of the standard
  // deviation about 0.0025; 5 of each leaves room only for real defects (a wrong quantile or
  // a probability outside (0, 1) would give inf).
  const auto normal = ana::Distribution::normal(3.0, 0.5);
  const auto r = ana::monte_carlo(20000, 5, [&](std::uint64_t s) { return normal.sample(s); });
  EXPECT_NEAR(r.mean, 3.0, 0.018);
  EXPECT_NEAR(r.std, 0.5, 0.013);
}

TEST(MonteCarlo, RegressionSlopeIsTheLeastSquaresSlope) {
  // Exact for points on a line; for scattered points numpy.polyfit([0, 1, 2, 3, 4],
  // [1.0, 2.9, 5.2, 6.8, 9.1], 1)[0] = 2.01.
  EXPECT_NEAR(ana::regression_slope({0, 1, 2, 3}, {1, 4, 7, 10}), 3.0, 1e-15);
  EXPECT_NEAR(ana::regression_slope({0, 1, 2, 3, 4}, {1.0, 2.9, 5.2, 6.8, 9.1}), 2.01, 1e-14);
  EXPECT_THROW((void)ana::regression_slope({1, 1}, {2, 3}), std::invalid_argument);
  EXPECT_THROW((void)ana::regression_slope({1}, {2}), std::invalid_argument);
}
