// Convergence of the explicit Runge-Kutta methods on x' = lambda x against the exact
// solution (Theorem 3.22): the observed order over a halving sequence of h. Every registered
// method is also covered by method_contract_test.cpp.
#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>
#include <simverify/simulation/tableaux.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace sim = simverify::simulation;

namespace {

double end_error(const std::string& method, double h, double lambda) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = method;
  s.h = h;
  s.tf = 1.0;
  s.parameters = {{"lambda", lambda}};
  const auto run = sim::Simulator(*model, s).run();
  return std::abs(run.x_end(0) - std::exp(lambda));
}

struct OrderCase {
  std::string method;
  int order;
  double h_coarse;  // chosen so the finest of 4 halvings stays well above round-off
};

class FixedStepOrder : public ::testing::TestWithParam<OrderCase> {};

TEST_P(FixedStepOrder, ObservedOrderWithinTenthOfNominal) {
  const auto& c = GetParam();
  // Slope of log(error) over log(h) between h and h/8: the asymptotic order p. 0.1 of
  // slack covers the higher-order error terms still present at these h (they shrink as h).
  const double e1 = end_error(c.method, c.h_coarse, -1.0);
  const double e2 = end_error(c.method, c.h_coarse / 8, -1.0);
  const double observed = std::log(e1 / e2) / std::log(8.0);
  EXPECT_NEAR(observed, c.order, 0.1) << c.method;
}

INSTANTIATE_TEST_SUITE_P(Methods, FixedStepOrder,
                         ::testing::Values(OrderCase{"ode1", 1, 1e-2}, OrderCase{"ode2", 2, 1e-2},
                                           OrderCase{"ode4", 4, 1e-1}),
                         [](const auto& test) { return test.param.method; });

TEST(ButcherTableau, ClassicalRungeKuttaIsExplicitAndConsistent) {
  const auto& t = sim::tableaux::rk4();
  EXPECT_TRUE(t.is_explicit());
  EXPECT_FALSE(t.is_embedded());
  EXPECT_DOUBLE_EQ(t.b.sum(), 1.0);  // first order condition, Simulink solver list eq. (6)
  for (int i = 0; i < t.stages(); ++i) {
    EXPECT_DOUBLE_EQ(t.a.row(i).sum(), t.c(i)) << "row sum condition, Simulink solver list eq. (8)";
  }
}

TEST(Simulator, CountsOneEvaluationPerStageAndStep) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode4";
  s.h = 0.125;
  s.tf = 1.0;
  const auto run = sim::Simulator(*model, s).run();
  EXPECT_EQ(run.statistics.steps, 8);
  EXPECT_EQ(run.statistics.rhs_evaluations, 8 * 4);
  EXPECT_EQ(run.trajectory.size(), 9u);
  EXPECT_DOUBLE_EQ(run.t_end, 1.0);
}

// Fixed-step dense output is cubic Hermite on (x, f) at both ends (exact for
// cubics). f at the step end is not part of a fixed step, so it is evaluated lazily: a run
// without interpolation costs exactly stages * steps evaluations, and interpolating any
// number of times within one step costs one more. x' = 3 t^2 (x = t^3) makes the Hermite
// interpolant exact, since RK4 integrates this quadrature exactly too.
TEST(FixedStepDenseOutput, LazyHermiteIsExactForCubicsAndCostsOneEvaluation) {
  const sim::OdeSystem system(
      1, [](double t, const sim::Vector&, sim::Vector& dx) { dx(0) = 3.0 * t * t; });
  auto stepper = sim::make_stepper("ode4");
  stepper->initialize(system, 0.0, sim::Vector::Zero(1), sim::StepperSettings{});
  sim::Vector x = sim::Vector::Zero(1);
  sim::Vector x_new(1);
  double t = 0.0;
  for (int k = 0; k < 4; ++k, t += 0.5) {
    stepper->step(system, t, x, 0.5, x_new);
    x = x_new;
  }
  EXPECT_EQ(system.rhs_evaluations(), 4 * 4);
  sim::Vector x_mid(1);
  for (double tq : {1.55, 1.7, 1.95}) {
    stepper->interpolate(tq, x_mid);
    EXPECT_NEAR(x_mid(0), tq * tq * tq, 1e-13) << tq;
  }
  EXPECT_EQ(system.rhs_evaluations(), 4 * 4 + 1);
  stepper->interpolate(2.0, x_mid);
  EXPECT_NEAR(x_mid(0), 8.0, 1e-13);
}

TEST(MethodRegistry, UnknownNameListsKnownOnes) {
  try {
    (void)sim::make_stepper("ode99");
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("ode4"), std::string::npos) << e.what();
  }
}

}  // namespace
