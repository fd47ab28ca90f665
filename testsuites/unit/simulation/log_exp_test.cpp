// The step size controller's inline log and exp (log_exp.hpp) against std::log / std::exp.
#include "methods/log_exp.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace {

namespace detail = simverify::simulation::detail;

// The polynomials' truncation terms are below 6e-16 relative (log_exp.hpp) and the few roundings
// add a few ulp: 1e-13 leaves a wide margin, yet catches a wrong table entry, interval or
// split constant (those err by 1e-10 or more).
constexpr double kTolerance = 1e-13;
constexpr int kSamples = 100'000;

double relative_error(double value, double reference) {
  return reference == 0.0 ? std::abs(value) : std::abs(value / reference - 1.0);
}

// u uniform over [low, high], the argument at(u): fast against reference, the worst relative
// error recorded in eps.
template <class Fast, class Reference, class At>
void expect_matches(Fast fast, Reference reference, At at, double low, double high,
                    std::uint32_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> u(low, high);
  double worst = 0.0;
  for (int n = 0; n < kSamples; ++n) {
    const double x = at(u(random));
    const double error = relative_error(fast(x), reference(x));
    ASSERT_LE(error, kTolerance) << "argument " << x;
    worst = std::max(worst, error);
  }
  ::testing::Test::RecordProperty("worst_relative_error_in_eps",
                                  std::to_string(worst / std::numeric_limits<double>::epsilon()));
}

// Log-uniform samples over [10^low, 10^high]: every binade between gets its share.
void expect_log_matches(double low, double high, std::uint32_t seed) {
  expect_matches([](double x) { return detail::fast_log(x); }, [](double x) { return std::log(x); },
                 [](double u) { return std::pow(10.0, u); }, low, high, seed);
}

// Over all binades, and again below 1 (the controller's err).
TEST(FastLog, MatchesStdLogOverAllBinadesAndBelowOne) {
  expect_log_matches(-300.0, 300.0, 1);
  expect_log_matches(-20.0, 0.0, 2);
}

// Near 1 log(x) is small: the relative error must hold there too (interval 0 is centred on 1).
TEST(FastLog, MatchesStdLogNearOne) {
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> offset(-0.02, 0.02);
  for (int n = 0; n < kSamples; ++n) {
    const double x = 1.0 + offset(random) * std::pow(10.0, -(n % 14));
    ASSERT_LE(relative_error(detail::fast_log(x), std::log(x)), kTolerance) << "x = " << x;
  }
  for (const double x : {std::nextafter(1.0, 0.0), std::nextafter(1.0, 2.0), 0.5, 2.0, 0.75, 1.5,
                         1.0 - 0x1p-9, 1.0 + 0x1p-8, 2.0 - 0x1p-8}) {
    EXPECT_LE(relative_error(detail::fast_log(x), std::log(x)), kTolerance) << "x = " << x;
  }
}

TEST(FastLog, SpecialValues) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(detail::fast_log(1.0), 0.0);  // exactly
  EXPECT_EQ(detail::fast_log(0.0), -kInf);
  EXPECT_EQ(detail::fast_log(-0.0), -kInf);
  EXPECT_EQ(detail::fast_log(kInf), kInf);
  EXPECT_TRUE(std::isnan(detail::fast_log(-1.0)));
  EXPECT_TRUE(std::isnan(detail::fast_log(-kInf)));
  EXPECT_TRUE(std::isnan(detail::fast_log(std::numeric_limits<double>::quiet_NaN())));
  for (const double x : {std::numeric_limits<double>::denorm_min(), 1e-310,
                         std::numeric_limits<double>::min(), std::numeric_limits<double>::max()}) {
    EXPECT_EQ(detail::fast_log(x), std::log(x)) << "x = " << x;  // off the fast path, or its edge
  }
}

void expect_exp_matches(double low, double high, std::uint32_t seed) {
  expect_matches([](double y) { return detail::fast_exp(y); }, [](double y) { return std::exp(y); },
                 [](double u) { return u; }, low, high, seed);
}

// Over the fast path, and again over the controller's arguments, beta log(err_prev) - exponent
// log(err): a few tens at most.
TEST(FastExp, MatchesStdExpOnTheFastPathAndSmallArguments) {
  expect_exp_matches(-700.0, 700.0, 4);
  expect_exp_matches(-20.0, 20.0, 5);
}

// The controller's form: c exp(y_hi + y_lo) with k from y_hi alone, against long double (the
// double sum y_hi + y_lo would itself be off by up to 700 eps).
TEST(FastExp, ScaledWithTwoPartArgumentMatchesLongDouble) {
  std::mt19937_64 random(6);
  std::uniform_real_distribution<double> high(-700.0, 700.0);
  std::uniform_real_distribution<double> low(-0.01, 0.01);
  for (int n = 0; n < kSamples; ++n) {
    const double y_hi = n % 2 == 0 ? high(random) : high(random) / 35.0;
    const double y_lo = low(random);
    const long double expected =
        0.9L * std::exp(static_cast<long double>(y_hi) + static_cast<long double>(y_lo));
    const double value = detail::fast_scaled_exp(0.9, y_hi, y_lo);
    ASSERT_LE(std::abs(static_cast<long double>(value) / expected - 1.0L), kTolerance)
        << "y = " << y_hi << " + " << y_lo;
  }
  // The log's parts as the controller passes them: lo stays within the bound exp assumes.
  std::uniform_real_distribution<double> exponent(-300.0, 300.0);
  for (int n = 0; n < kSamples; ++n) {
    const double x = std::pow(10.0, exponent(random));
    ASSERT_LE(std::abs(detail::fast_log_parts(x).lo), 0.004) << "x = " << x;
  }
}

TEST(FastExp, SpecialValues) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(detail::fast_exp(0.0), 1.0);  // exactly
  EXPECT_EQ(detail::fast_exp(-0.0), 1.0);
  EXPECT_EQ(detail::fast_exp(kInf), kInf);
  EXPECT_EQ(detail::fast_exp(-kInf), 0.0);
  EXPECT_TRUE(std::isnan(detail::fast_exp(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_EQ(detail::fast_exp(800.0), kInf);
  EXPECT_EQ(detail::fast_exp(-800.0), 0.0);
  for (const double y : {700.0, -700.0, 709.0, -745.0, 1e-300, -1e-300, 1e-10, -1e-10}) {
    EXPECT_LE(relative_error(detail::fast_exp(y), std::exp(y)), kTolerance) << "y = " << y;
  }
}

}  // namespace
