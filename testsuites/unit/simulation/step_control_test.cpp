// The step size controller (Thm 3.35 with the PI term) against its formula evaluated with pow.
#include "methods/step_control.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

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
  double previous = 1e-4;  // reset(): Hairer's facold floor
  for (const double err : {0.5, 0.9, 1e-3, 1e-7, 0.3, 1.0, 0.02}) {
    const double expected =
        std::clamp(p.safety * std::pow(err, -exponent) * std::pow(previous, p.beta), p.min_shrink,
                   p.max_growth);
    // exp(beta ln err_prev - exponent ln err) against pow * pow: a few roundings of numbers
    // below 20 in the exponent, so agreement to 1e-13 relative.
    EXPECT_NEAR(controller.accepted(err) / expected, 1.0, 1e-13) << err;
    previous = std::max(err, 1e-4);
  }
  EXPECT_EQ(controller.accepted(0.0), p.max_growth);  // an exact step grows as far as allowed
  EXPECT_LT(controller.rejected(4.0), 1.0);
  EXPECT_LE(controller.accepted(1e-6), 1.0);  // no growth right after a rejection
}

}  // namespace
