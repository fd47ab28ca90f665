// The step size controller (Thm 3.35 with the PI term) against its formula evaluated with pow.
#include "methods/step_control.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace {

namespace detail = simverify::simulation::detail;

// Thm 3.35 with the PI term: factor = eta err^-(1/(q+1) - 0.75 beta) err_prev^beta, clamped to
// [min_shrink, max_growth], no growth right after a rejection; err_prev is floored at 1e-4.
TEST(StepSizeController, AcceptedFactorIsTheFormula) {
  const detail::StepControlParameters p{.beta = 0.04};
  const int q = 4;  // Dormand-Prince 5(4)
  const double exponent = 1.0 / (q + 1.0) - 0.75 * p.beta;
  detail::StepSizeController controller(q, p);
  controller.reset();
  double previous = 1e-4;   // reset(): Hairer's facold floor
  const double step = 0.3;  // accepted() and rejected() return the next step, h_new = factor h
  for (const double err : {0.5, 0.9, 1e-3, 1e-7, 0.3, 1.0, 0.02}) {
    const double expected =
        std::clamp(p.safety * std::pow(err, -exponent) * std::pow(previous, p.beta), p.min_shrink,
                   p.max_growth);
    // Two table powers (power_table.hpp: within 1.92e-7 for -0.17 and 3.7e-8 for 0.04, plus a
    // few ulp) against pow * pow: agreement to 2.5e-7 relative.
    EXPECT_NEAR(controller.accepted(step, err) / (step * expected), 1.0, 2.5e-7) << err;
    previous = std::max(err, 1e-4);
  }
  // An exact step grows as far as allowed; no growth right after a rejection.
  EXPECT_EQ(controller.accepted(step, 0.0), step * p.max_growth);
  EXPECT_LT(controller.rejected(step, 4.0), step);
  EXPECT_LE(controller.accepted(step, 1e-6), step);
}

// Every lower order's I controller (beta = 0) and PI controller (beta = 0.04) has its table
// built at compile time up to q = 12; other orders and betas build theirs when constructed: the
// factor is the formula either way. err > 1 after the first step: rejected, pure I.
TEST(StepSizeController, EveryOrderAndBetaFollowsTheFormula) {
  for (const double beta : {0.0, 0.04, 0.08}) {
    for (int q = 1; q <= 16; ++q) {
      const detail::StepControlParameters p{.beta = beta};
      const double exponent = 1.0 / (q + 1.0) - 0.75 * beta;
      detail::StepSizeController controller(q, p);
      controller.reset();
      const double expected = std::clamp(
          p.safety * std::pow(0.01, -exponent) * std::pow(1e-4, beta), p.min_shrink, p.max_growth);
      // |power| <= 1/2: the tables' lines are within 7.2e-7 (power_table.hpp); with beta, the
      // powers are at most 0.44 and 0.08, within 6.1e-7 and 7.1e-8.
      EXPECT_NEAR(controller.accepted(1.0, 0.01) / expected, 1.0, 7.5e-7) << q << ' ' << beta;
      EXPECT_NEAR(controller.rejected(1.0, 3.0) / (p.safety * std::pow(3.0, -exponent)), 1.0,
                  7.5e-7)
          << q << ' ' << beta;
    }
  }
}

// A non-finite err after a rejection shrinks as hard as allowed (inf: factor 0; NaN: f failed).
TEST(StepSizeController, NonFiniteErrorShrinksAsHardAsAllowed) {
  const detail::StepControlParameters p{.beta = 0.04};
  detail::StepSizeController controller(4, p);
  EXPECT_EQ(controller.rejected(1.0, std::numeric_limits<double>::infinity()), p.min_shrink);
  EXPECT_EQ(controller.rejected(1.0, std::nan("")), p.min_shrink);
}

// StepControlParameters::hold: h is kept (factor 1) for err in [hold, 1], and the PI memory
// still takes that err; below the band, and after a rejection, the formula as before.
TEST(StepSizeController, HoldKeepsTheStepInItsBandOnly) {
  const detail::StepControlParameters p{.beta = 0.04, .hold = 0.5};
  const int q = 4;
  const double exponent = 1.0 / (q + 1.0) - 0.75 * p.beta;
  detail::StepSizeController held(q, p);
  held.reset();
  for (const double err : {0.5, 0.75, 1.0}) EXPECT_EQ(held.accepted(1.0, err), 1.0) << err;
  // err_prev is 1.0, the last held step's, so the formula's PI term is 1^beta = 1.
  const double expected = p.safety * std::pow(0.1, -exponent);
  EXPECT_NEAR(held.accepted(1.0, 0.1) / expected, 1.0, 2.5e-7);  // as above
  EXPECT_LT(held.rejected(1.0, 2.0), 1.0);
  EXPECT_EQ(held.accepted(1.0, 0.6), 1.0);  // in the band after a rejection: kept, not grown
  EXPECT_NE(held.accepted(1.0, std::nan("")), 1.0);  // NaN is never "in the band"
}

TEST(StepSizeController, StepHoldSettingIsCheckedAndApplied) {
  simverify::simulation::StepperSettings settings;
  settings.safety = 0.8;
  settings.step_hold = 0.3;
  const auto applied = detail::with_settings({.beta = 0.04}, settings);
  EXPECT_EQ(applied.safety, 0.8);
  EXPECT_EQ(applied.hold, 0.3);
  EXPECT_EQ(applied.beta, 0.04);
  for (const double wrong : {-0.1, 1.5, std::nan("")}) {
    settings.step_hold = wrong;
    EXPECT_THROW(static_cast<void>(detail::with_settings({}, settings)), std::invalid_argument)
        << wrong;
  }
}

}  // namespace
