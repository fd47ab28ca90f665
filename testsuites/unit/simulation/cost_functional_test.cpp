// Cost functionals (Def 2.16) against closed-form integrals.
#include <simverify/simulation/analysis/cost_functional.hpp>
#include <simverify/simulation/model_registry.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace sim = simverify::simulation;
namespace ana = simverify::simulation::analysis;

namespace {

double squared_cost(const std::string& method, double h, double rtol) {
  const auto model = sim::make_model("exponential");
  ana::CostFunctional cost(ana::CostFunctional::squared_deviation(sim::Vector::Zero(1)));
  sim::SimulatorSettings s;
  s.method = method;
  s.h = h;
  s.stepper.rtol = rtol;
  s.stepper.atol = {rtol * 1e-2};
  s.tf = 2.0;
  s.parameters = {{"lambda", -0.75}};
  s.record_trajectory = false;
  s.on_step = cost.observer();
  (void)sim::Simulator(*model, s).run();
  EXPECT_NEAR(cost.duration(), 2.0, 1e-12);
  return cost.value();
}

// J = int_0^2 (exp(-0.75 t))^2 dt = (1 - exp(-3)) / 1.5.
const double kExact = (1.0 - std::exp(-3.0)) / 1.5;

}  // namespace

TEST(CostFunctional, AdaptiveRunIntegratesToTheSolverAccuracy) {
  // ode45 at rtol 1e-10: the state is accurate to ~1e-10, the quadrature is degree 5 on a
  // 4th-order dense output, so J is accurate to about the same relative level.
  EXPECT_NEAR(squared_cost("ode45", 0.0, 1e-10), kExact, 1e-8);
}

TEST(CostFunctional, UsesTheDenseOutputNotJustTheStepEnds) {
  // ode4 with only 4 steps of h = 0.5: the trapezoidal rule on the step ends would be off by
  // h^2/12 * |J''| ~ 2e-2; quadrature on the cubic Hermite dense output is within 1e-3.
  const double j = squared_cost("ode4", 0.5, 1e-3);
  EXPECT_NEAR(j, kExact, 1e-3);
}
