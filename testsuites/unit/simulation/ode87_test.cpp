// ode87: Prince and Dormand's RK8(7)13M pair (J. Comput. Appl. Math. 7(1), 1981) as an
// adaptive method, with the degree-7 Hermite dense output of hermite_history.hpp. Checked
// against the exact solution of the harmonic oscillator x'' = -x (x = cos t, v = -sin t).
#include "stepper_test_support.hpp"

#include <simverify/simulation/integrate.hpp>
#include <simverify/simulation/method_registry.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace sim = simverify::simulation;
using sim::testing::tolerance;

namespace {

sim::OdeSystem oscillator() {
  return sim::OdeSystem(2, [](double, const sim::Vector& x, sim::Vector& dx) {
    dx(0) = x(1);
    dx(1) = -x(0);
  });
}

sim::Vector exact(double t) {
  return sim::Vector{{std::cos(t), -std::sin(t)}};
}

double distance(const sim::Vector& a, const sim::Vector& b) {
  return (a - b).cwiseAbs().maxCoeff();
}

TEST(Ode87, IsRegisteredAsAnAdaptiveEighthOrderMethod) {
  const auto& info = sim::method_info("ode87");
  EXPECT_EQ(info.control, sim::StepControl::adaptive);
  EXPECT_EQ(info.order, 8);
  EXPECT_EQ(sim::make_stepper("ode87")->order(), 8);
}

// Thm 3.34 from exact data: the local error of the propagated 8th-order solution is
// O(h^9), the embedded estimate (of the 7th-order solution's error) O(h^8). rtol = 0,
// atol = 1 makes the scaled error norm the max-norm estimate itself. h = 1 and 0.5 keep both
// far above round-off (measured: local error 2.6e-10 at h = 0.5); slopes within 0.3.
TEST(Ode87, LocalErrorAndEstimateHaveOrders9And8) {
  const auto system = oscillator();
  sim::StepperSettings s;
  s.rtol = 0.0;
  s.atol = {1.0};
  auto one_step = [&](double h, double& estimate, double& local) {
    auto stepper = sim::make_stepper("ode87");
    stepper->initialize(system, 0.0, exact(0.0), s);
    sim::Vector x_new(2);
    const auto a = stepper->step(system, 0.0, exact(0.0), h, x_new);
    ASSERT_TRUE(a.accepted);
    estimate = a.error_norm;
    local = distance(x_new, exact(h));
  };
  double est1 = 0, loc1 = 0, est2 = 0, loc2 = 0;
  one_step(1.0, est1, loc1);
  one_step(0.5, est2, loc2);
  EXPECT_NEAR(std::log2(loc1 / loc2), 9.0, 0.3) << loc1 << " " << loc2;
  EXPECT_NEAR(std::log2(est1 / est2), 8.0, 0.3) << est1 << " " << est2;
}

// Dense output over a whole controlled run is as accurate as the steps themselves: at 1000
// points between the step ends, the error stays within 10 times the worst error at a step
// end (cubic Hermite would be orders of magnitude worse at these step sizes: its O(h^4)
// error at h ~ 0.3 is ~1e-5).
TEST(Ode87, DenseOutputIsAsAccurateAsTheSteps) {
  const auto system = oscillator();
  auto stepper = sim::make_stepper("ode87");
  const auto s = tolerance(1e-11);
  double worst_step = 0.0;
  double worst_dense = 0.0;
  int queries = 0;
  sim::Vector x(2);
  constexpr double kEnd = 20.0;
  const auto end = sim::integrate(*stepper, system, 0.0, exact(0.0), kEnd, 0.0, s,
                                  [&](double t_old, double t, const sim::Vector& x_end) {
                                    worst_step = std::max(worst_step, distance(x_end, exact(t)));
                                    for (int k = 0; k < 1000; ++k) {
                                      const double tq = (k + 0.5) * kEnd / 1000.0;
                                      if (tq <= t_old || tq > t) continue;
                                      stepper->interpolate(tq, x);
                                      worst_dense = std::max(worst_dense, distance(x, exact(tq)));
                                      ++queries;
                                    }
                                  });
  EXPECT_EQ(end.t, kEnd);
  EXPECT_EQ(queries, 1000);
  EXPECT_GT(worst_step, 0.0);
  EXPECT_LT(worst_dense, 10.0 * worst_step) << worst_dense << " vs steps " << worst_step;
}

// The interpolant's own order: with loose tolerances every step is max_step, so the step
// size is set exactly. Between the step ends of the last steps the dense error falls like
// h^8 (degree-7 Hermite through four step ends whose own errors are O(h^8) too); measured
// slope from h = 0.5 to 0.25 (comment in the expectation), 1 of slack below 8.
TEST(Ode87, DenseOutputConvergesWithOrder8) {
  const auto system = oscillator();
  auto dense_error = [&](double h) {
    auto stepper = sim::make_stepper("ode87");
    auto s = tolerance(1.0);
    s.max_step = h;
    double worst = 0.0;
    sim::Vector x(2);
    (void)sim::integrate(*stepper, system, 0.0, exact(0.0), 4.0, h, s,
                         [&](double t_old, double t, const sim::Vector&) {
                           if (t_old < 1.0) return;  // history full: four step ends
                           for (const double theta : {0.25, 0.5, 0.75}) {
                             const double tq = t_old + theta * (t - t_old);
                             stepper->interpolate(tq, x);
                             worst = std::max(worst, distance(x, exact(tq)));
                           }
                         });
    return worst;
  };
  const double coarse = dense_error(0.5);
  const double fine = dense_error(0.25);
  EXPECT_GT(std::log2(coarse / fine), 7.0) << coarse << " " << fine;
}

// After a restart (initialize at a new point, as after an event) the history starts again:
// the dense output of every step, the first included, passes through its own ends.
TEST(Ode87, DenseOutputRestartsWithTheStepper) {
  const auto system = oscillator();
  auto stepper = sim::make_stepper("ode87");
  const auto s = tolerance(1e-10);
  (void)sim::integrate(*stepper, system, 0.0, exact(0.0), 3.0, 0.0, s);
  sim::Vector x(2);
  double t_first = 0.0;
  (void)sim::integrate(*stepper, system, 5.0, exact(5.0), 6.0, 0.1, s,
                       [&](double t_old, double t, const sim::Vector& x_end) {
                         if (t_first == 0.0) t_first = t;
                         stepper->interpolate(t_old, x);
                         EXPECT_LT(distance(x, exact(t_old)), 1e-9) << t_old;
                         stepper->interpolate(t, x);
                         EXPECT_LT(distance(x, x_end), 1e-14) << t;
                       });
  EXPECT_GT(t_first, 5.0);
}

}  // namespace
