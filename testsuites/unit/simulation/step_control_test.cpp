// The step size controller's inline ln and exp (methods/control_log_exp.hpp) against libm, and
// the controller (Thm 3.35 with the PI term) against its formula evaluated with libm.
#include "methods/step_control.hpp"
#include "methods/control_log_exp.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

namespace detail = simverify::simulation::detail;

// The bounds the header derives from the series' remainders (7.3e-10 and 2.8e-10), with a
// little room for rounding; libm is good to an ulp, far below either.
constexpr double kLogAbsoluteError = 1e-9;
constexpr double kExpRelativeError = 3e-10;

TEST(ControlLogExp, LogAgreesWithLibmOverTheNormalRange) {
  double worst = 0.0;
  // Exponents -708..709 (every binade of the normal doubles) at an irrational stride, so the
  // mantissas sweep [sqrt(1/2), sqrt(2)) many times.
  for (double e = -708.0; e <= 709.0; e += 0.000913) {
    const double x = std::exp(e);
    worst = std::max(worst, std::abs(detail::control_log(x) - std::log(x)));
  }
  EXPECT_LT(worst, kLogAbsoluteError);
  EXPECT_GT(worst, 1e-12);  // the series really is truncated: the check can fail
  // The ends of the reduction interval and the exponent boundaries.
  for (const double x :
       {std::sqrt(0.5), std::nextafter(std::sqrt(0.5), 0.0), std::sqrt(2.0), 1.0, 2.0, 0.5,
        std::numeric_limits<double>::min(), std::numeric_limits<double>::max()}) {
    EXPECT_NEAR(detail::control_log(x), std::log(x), kLogAbsoluteError) << x;
  }
}

TEST(ControlLogExp, ExpAgreesWithLibmWithinItsRange) {
  double worst = 0.0;
  for (double y = -700.0; y <= 700.0; y += 0.0001237) {
    worst = std::max(worst, std::abs(detail::control_exp(y) / std::exp(y) - 1.0));
  }
  EXPECT_LT(worst, kExpRelativeError);
  EXPECT_EQ(detail::control_exp(0.0), 1.0);
}

TEST(ControlLogExp, SpecialValuesAreLibms) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(detail::control_log(0.0), -kInf);
  EXPECT_TRUE(std::isnan(detail::control_log(-1.0)));
  EXPECT_TRUE(std::isnan(detail::control_log(std::nan(""))));
  EXPECT_EQ(detail::control_log(kInf), kInf);
  EXPECT_EQ(detail::control_log(5e-324), std::log(5e-324));  // subnormal: libm's path
  EXPECT_EQ(detail::control_exp(kInf), kInf);
  EXPECT_EQ(detail::control_exp(-kInf), 0.0);
  EXPECT_EQ(detail::control_exp(800.0), kInf);
  EXPECT_EQ(detail::control_exp(-800.0), std::exp(-800.0));
  EXPECT_TRUE(std::isnan(detail::control_exp(std::nan(""))));
}

// Thm 3.35 with the PI term: factor = eta err^-(1/(q+1) - 0.75 beta) err_prev^beta, clamped to
// [min_shrink, max_growth], no growth right after a rejection; err_prev is floored at 1e-4.
TEST(StepSizeController, AcceptedFactorIsTheFormula) {
  const detail::StepControlParameters p{.beta = 0.04};
  const int q = 4;  // Dormand-Prince 5(4)
  const double exponent = 1.0 / (q + 1.0) - 0.75 * p.beta;
  detail::StepSizeController controller(q, p);
  controller.reset();
  double previous = 1e-4;  // reset(): Hairer's facold floor
  for (const double err : {0.5, 0.9, 1e-3, 1e-7, 0.3, 1.0, 0.02}) {
    const double expected =
        std::clamp(p.safety * std::pow(err, -exponent) * std::pow(previous, p.beta), p.min_shrink,
                   p.max_growth);
    // The factor is good to the inline ln and exp: relative 1e-9 is ample for a step size.
    EXPECT_NEAR(controller.accepted(err) / expected, 1.0, 1e-9) << err;
    previous = std::max(err, 1e-4);
  }
  EXPECT_EQ(controller.accepted(0.0), p.max_growth);  // an exact step grows as far as allowed
  EXPECT_LT(controller.rejected(4.0), 1.0);
  EXPECT_LE(controller.accepted(1e-6), 1.0);  // no growth right after a rejection
}

}  // namespace
