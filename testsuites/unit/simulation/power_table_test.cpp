// The step size controller's table powers (power_table.hpp) against std::pow in long double.
#include "methods/power_table.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace {

using simverify::simulation::detail::PowerTable;

constexpr double kEps = std::numeric_limits<double>::epsilon();

// power_table.hpp's bound: a cell's line is within (1.01 / 2) |C(p, 2)| 2^-18 of z^p, plus a
// few roundings (the line's coefficients, its evaluation, the products: 8 ulp is generous). A
// wrong table entry, cell or slope errs by a multiple of the bound: the line alone, without
// its lowering by half, errs by twice it at the cells' centres.
double tolerance(double p) {
  const double binomial2 = std::abs(p * (p - 1) / 2.0);
  return 0.505 * binomial2 * std::ldexp(1.0, -18) + 8.0 * kEps;
}

double relative_error(double value, long double reference) {
  return static_cast<double>(std::abs(static_cast<long double>(value) / reference - 1.0L));
}

// Log-uniform x over [10^low, 10^high] (every binade gets its share), c = 0.9 (eta).
void expect_matches_pow(const PowerTable& table, double low, double high, std::uint32_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> exponent(low, high);
  const double p = table.power();
  double worst = 0.0;
  for (int n = 0; n < 100'000; ++n) {
    const double x = std::pow(10.0, exponent(random));
    const long double reference = 0.9L * std::pow(static_cast<long double>(x), p);
    const double error = relative_error(table.scaled(0.9, x), reference);
    ASSERT_LE(error, tolerance(p)) << "p = " << p << ", x = " << x;
    worst = std::max(worst, error);
  }
  ::testing::Test::RecordProperty("worst_relative_error_p" + std::to_string(p),
                                  std::to_string(worst));
}

// The controllers' powers (ode45's -0.17, the I controllers' -1/(q+1), the PI term's 0.04) and
// the range's ends, over the tables' whole range and again where the controller's err lies.
TEST(PowerTable, MatchesPowOverTheTablesRange) {
  for (const long double p : {-0.17L, -0.5L, -1.0L / 3, -0.125L, 0.04L, 1.0L, -1.0L, 0.0L}) {
    const PowerTable table(p);
    expect_matches_pow(table, -19.0, 19.0, 1);
    expect_matches_pow(table, -12.0, 1.0, 2);
  }
}

// Every interval's edges and centre, in the binades the controller meets, and 1 itself.
TEST(PowerTable, IntervalEdgesAndCentres) {
  const PowerTable table(-0.17L);
  for (int i = 0; i < 256; ++i) {
    const double low = 1.0 + i / 256.0;
    for (const double z : {low, low + 0x1p-9, std::nextafter(low + 0x1p-8, 0.0)}) {
      for (const int e : {-64, -20, -1, 0, 1, 63}) {
        const double x = std::ldexp(z, e);
        const long double reference = std::pow(static_cast<long double>(x), -0.17L);
        EXPECT_LE(relative_error(table.scaled(1.0, x), reference), tolerance(-0.17)) << x;
      }
    }
  }
}

// Off the tables (outside [2^-64, 2^64), 0, negative, subnormal, inf, NaN): std::pow's value.
TEST(PowerTable, OffTheTablesIsStdPow) {
  const PowerTable table(-0.17L);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (const double x : {0.0, -0.0, 1e-20, 0x1p-65, 0x1p64, 1e300, kInf, -kInf, 5e-324, 1e-310}) {
    EXPECT_EQ(table.scaled(0.9, x), 0.9 * std::pow(x, -0.17)) << x;
  }
  EXPECT_EQ(table.scaled(0.9, 0.0), kInf);  // err == 0: the controller grows as far as allowed
  EXPECT_EQ(table.scaled(0.9, kInf), 0.0);  // err == inf: it shrinks as far as allowed
  EXPECT_TRUE(std::isnan(table.scaled(0.9, -1.0)));
  EXPECT_TRUE(std::isnan(table.scaled(0.9, std::numeric_limits<double>::quiet_NaN())));
}

// The tables are built at compile time for the shipped controllers: the same constructor.
TEST(PowerTable, BuildsAtCompileTime) {
  static constexpr PowerTable kTable(-0.2L);
  static_assert(kTable.power() == -0.2);
  EXPECT_LE(relative_error(kTable.scaled(1.0, 1e-3), std::pow(1e-3L, -0.2L)), tolerance(-0.2));
}

TEST(PowerTable, RejectsPowersBeyondOne) {
  for (const long double power : {1.5L, -1.01L, std::numeric_limits<long double>::quiet_NaN()}) {
    EXPECT_THROW(PowerTable{power}, std::invalid_argument) << static_cast<double>(power);
  }
}

}  // namespace
