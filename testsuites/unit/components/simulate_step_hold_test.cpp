// The `step_hold` axis of `simulate`: StepperSettings::step_hold from the grid point, checked
// at load time.
#include <simverify/components/components.hpp>

#include <gtest/gtest.h>

#include "component_test_support.hpp"

#include <string>

namespace fw = simverify::framework;

namespace {

using simverify::components::testing::builtin_registry;
using simverify::components::testing::evaluate;
using simverify::components::testing::measure;
using simverify::components::testing::Values;

// harmonic_oscillator over ten periods at rtol = atol = 1e-8: ode45's global error there is
// about 1e-7 (its local errors add up over ~600 steps). The hold keeps the error test on
// every step, so it stays at that level (bound 1e-6, 10x margin), with other steps than the
// PI controller's.
TEST(SimulateStepHold, KeepsTheToleranceWithOtherSteps) {
  const Values plain = {{"model", "harmonic_oscillator"}, {"rtol", 1e-8}, {"atol", 1e-8}};
  Values held = plain;
  held.emplace_back("step_hold", 0.5);
  const fw::Measurement a = evaluate("simulate", plain);
  const fw::Measurement b = evaluate("simulate", held);
  EXPECT_LT(measure(a, "error_end"), 1e-6);
  EXPECT_LT(measure(b, "error_end"), 1e-6);
  EXPECT_NE(measure(a, "steps") + measure(a, "rejected_steps"),
            measure(b, "steps") + measure(b, "rejected_steps"));
}

TEST(SimulateStepHold, AxisTakesANumberFromZeroToOne) {
  const auto& check = builtin_registry().find("simulate")->check_axis;
  EXPECT_EQ(check("step_hold", fw::Value(0.0)), std::nullopt);
  EXPECT_EQ(check("step_hold", fw::Value(0.5)), std::nullopt);
  EXPECT_EQ(check("step_hold", fw::Value(1.0)), std::nullopt);
  for (const double wrong : {-0.1, 1.5}) {
    const auto problem = check("step_hold", fw::Value(wrong));
    ASSERT_TRUE(problem.has_value()) << wrong;
    EXPECT_NE(problem->message.find("[0, 1]"), std::string::npos) << problem->message;
  }
  EXPECT_TRUE(check("step_hold", fw::Value(std::string("often"))).has_value());
}

}  // namespace
