// The step-response measures end to end through `simulate`: the built-in spring_mass_damper
// driven by a constant force from rest, m y'' + d y' + k y = F, is the second-order step
// response y = (F / k) (1 - e^(-zeta wn t) (cos wd t + zeta / sqrt(1 - zeta^2) sin wd t)),
// wn = sqrt(k / m), zeta = d / (2 sqrt(k m)), wd = wn sqrt(1 - zeta^2).
#include <simverify/components/components.hpp>
#include <simverify/framework/quality.hpp>

#include <gtest/gtest.h>

#include "component_test_support.hpp"

#include <cmath>
#include <limits>
#include <numbers>

namespace fw = simverify::framework;

namespace {

using simverify::components::testing::evaluate;
using simverify::components::testing::Values;

// m = 1 kg, k = 100 N/m, d = 6 N s/m, F = 100 N: wn = 10 rad/s, zeta = 0.3, y_f = 1 m.
constexpr double kWn = 10.0;
constexpr double kZeta = 0.3;

double response(double t) {
  const double root = std::sqrt(1.0 - kZeta * kZeta);
  return 1.0 - std::exp(-kZeta * kWn * t) *
                   (std::cos(kWn * root * t) + kZeta / root * std::sin(kWn * root * t));
}

// The first time the analytic response reaches `level` (a scan every 1e-6 s, then bisection).
double first_reaching(double level) {
  double lo = 0.0;
  while (response(lo + 1e-6) < level) lo += 1e-6;
  double hi = lo + 1e-6;
  for (int i = 0; i < 60; ++i) (response(0.5 * (lo + hi)) < level ? lo : hi) = 0.5 * (lo + hi);
  return hi;
}

// The last time |y - 1| exceeds 0.02 before tf.
double settling(double tf) {
  const auto outside = [](double t) { return std::abs(response(t) - 1.0) > 0.02; };
  double lo = tf;
  while (!outside(lo)) lo -= 1e-6;
  double hi = lo + 1e-6;
  for (int i = 0; i < 60; ++i) (outside(0.5 * (lo + hi)) ? lo : hi) = 0.5 * (lo + hi);
  return lo;
}

Values step(double d, double max_step) {
  return {{"model", "spring_mass_damper"},
          {"method", "ode45"},
          {"rtol", 1e-8},
          {"atol", 1e-10},
          {"max_step", max_step},
          {"x0", fw::Value::List{0.0, 0.0}},
          {"u", 100.0},
          {"p.d", d},
          {"tf", 5.0},
          {"reference", "none"}};
}

}  // namespace

// With max_step = 1e-3 the recorded samples are 1 ms apart: an extreme sample is at most
// 0.5 ms from the true one (value error <= wn^2 (0.5e-3)^2 / 2 = 1.3e-5, 1.3e-3 percent), a
// crossing interpolated with error <= (dt^2 / 8) max|y''| / |y'| (< 1e-6 s at these
// crossings); ode45 at rtol 1e-8 adds ~1e-8.
TEST(SimulateStepResponse, SpringMassDamperMatchesTheAnalyticStepResponse) {
  const fw::Measurement m = evaluate("simulate", step(6.0, 1e-3));
  const double root = std::sqrt(1.0 - kZeta * kZeta);
  const double overshoot = 100.0 * std::exp(-kZeta * std::numbers::pi / root);  // 37.23 %
  EXPECT_NEAR(fw::evaluate_measure(m, "overshoot(y.y)"), overshoot, 2e-3);
  EXPECT_NEAR(fw::evaluate_measure(m, "peak_time(y.y)"), std::numbers::pi / (kWn * root), 5e-4);
  EXPECT_NEAR(fw::evaluate_measure(m, "peak(y.y)"), 1.0 + overshoot / 100, 2e-5);
  EXPECT_NEAR(fw::evaluate_measure(m, "rise_time(y.y)"), first_reaching(0.9) - first_reaching(0.1),
              1e-5);
  EXPECT_NEAR(fw::evaluate_measure(m, "settling_time(y.y)"), settling(5.0), 1e-5);
  EXPECT_NEAR(fw::evaluate_measure(m, "steady_state_error(y.y, 1)"), 0.0, 1e-6);
  EXPECT_EQ(fw::evaluate_measure(m, "undershoot(y.y)"), 0.0);
}

// Undamped (d = 0) the response oscillates for ever: at tf only the last sample lies within
// 2 % of the final value, so it never settles and a settling-time requirement fails.
TEST(SimulateStepResponse, AnUndampedResponseNeverSettlesAndFails) {
  const fw::Measurement m = evaluate("simulate", step(0.0, 1e-3));
  const double t = fw::evaluate_measure(m, "settling_time(y.y)");
  EXPECT_EQ(t, std::numeric_limits<double>::infinity());
  EXPECT_FALSE(fw::Threshold::parse("<= 4")->satisfied(t));
}
