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
