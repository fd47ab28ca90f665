// The contract every registered solution method keeps, whichever family registered it
// (explicit, implicit, adaptive): parameterized over method_names(), so a method added to the
// registry is tested without touching this file. Reference solutions are analytic.
//   fixed-step: observed convergence order within 0.1 of MethodInfo.order (Thm 3.22),
//               dense output of local order >= min(p, 3) + 1
//   adaptive:   the global error falls with the tolerance, dense output as accurate as the
//               steps, max_step respected
//   all:        quadrature exactness, statistics agree with what the driver saw
#include "stepper_test_support.hpp"

#include <simverify/simulation/method_registry.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace sim = simverify::simulation;
using sim::testing::drive;
using sim::testing::tolerance;

namespace {

// x1' = x1 cos t, x1(0) = 1  ->  x1 = exp(sin t)       (non-autonomous, linear in x)
// x2' = -x2^2,   x2(0) = 1  ->  x2 = 1 / (1 + t)       (autonomous, nonlinear)
// Together every elementary differential is non-zero, so no order is hidden by structure.
sim::OdeSystem test_problem() {
  return sim::OdeSystem(
      2,
      [](double t, const sim::Vector& x, sim::Vector& dx) {
        dx(0) = x(0) * std::cos(t);
        dx(1) = -x(1) * x(1);
      },
      [](double t, const sim::Vector& x, sim::Matrix& j) {
        j.setZero(2, 2);
        j(0, 0) = std::cos(t);
        j(1, 1) = -2.0 * x(1);
      });
}

sim::Vector exact(double t) {
  return sim::Vector{{std::exp(std::sin(t)), 1.0 / (1.0 + t)}};
}
sim::Vector x0() {
  return exact(0.0);
}

// Tight tolerances: fixed-step implicit methods use them for their nonlinear solves, which
// must not limit the observed order.
sim::StepperSettings tight() {
  sim::StepperSettings s;
  s.rtol = 1e-13;
  s.atol = {1e-15};
  return s;
}

bool is_adaptive(const std::string& method) {
  return sim::method_info(method).control == sim::StepControl::adaptive;
}

class MethodContract : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    // Runge-Kutta-Nystrom methods need x'' = g(t, q), which these first-order problems lack:
    // nystrom_stepper_test.cpp holds them to the same contract on a second-order problem.
    if (sim::method_info(GetParam()).second_order) GTEST_SKIP() << "second-order methods";
  }
};

TEST_P(MethodContract, InfoMatchesStepper) {
  const auto& info = sim::method_info(GetParam());
  auto stepper = sim::make_stepper(GetParam());
  EXPECT_EQ(info.name, GetParam());
  EXPECT_EQ(stepper->order(), info.order);
  EXPECT_EQ(stepper->control(), info.control);
  EXPECT_GE(info.order, 1);
}

// Thm 3.22: global error C h^p, here on the harmonic oscillator x1' = x2, x2' = -x1 over
// [0, 8] (exact: cos t, -sin t). A linear problem on purpose: Dormand-Prince tableaux are
// built to have tiny principal error coefficients, so on generic nonlinear problems the
// h^(p+1) term dominates until round-off (measured for ode5 on the problem above: slopes
// 7.1, 6.5, 6.0, 5.4 down to 3e-12) and no clean slope exists; the nonlinear order
// conditions are checked exactly in tableau_order_conditions_test.cpp. h = 8/n,
// n = 8, 16, ..., 8192; the slope is taken between h and h/4 at the finest pair whose errors
// both exceed 5e-12 (round-off of this problem over those steps is ~1e-14); 0.1 of slack
// covers the remaining higher-order terms.
TEST_P(MethodContract, FixedStepObservedOrderIsNominal) {
  const std::string& method = GetParam();
  if (is_adaptive(method)) GTEST_SKIP() << "adaptive: see GlobalErrorFallsWithTolerance";
  const int p = sim::method_info(method).order;
  constexpr double kTf = 8.0;
  const sim::OdeSystem oscillator(
      2,
      [](double, const sim::Vector& x, sim::Vector& dx) {
        dx(0) = x(1);
        dx(1) = -x(0);
      },
      [](double, const sim::Vector&, sim::Matrix& j) { j << 0.0, 1.0, -1.0, 0.0; });
  const sim::Vector exact_end{{std::cos(kTf), -std::sin(kTf)}};
  std::vector<double> errors;
  std::ostringstream trace;
  for (double n = 8.0; n <= 8192.0; n *= 2.0) {
    auto stepper = sim::make_stepper(method);
    const auto r = drive(*stepper, oscillator, 0.0, sim::Vector{{1.0, 0.0}}, kTf, kTf / n, tight());
    errors.push_back((r.x_end - exact_end).cwiseAbs().maxCoeff());
    trace << ' ' << n << ':' << errors.back();
    if (errors.back() < 5e-12) break;
  }
  // The slope between runs `apart` halvings apart, from the last pair whose finer error is
  // still above round-off.
  const auto slope = [&errors](std::size_t apart) -> std::optional<double> {
    std::optional<double> observed;
    for (std::size_t k = 0; k + apart < errors.size() && errors[k + apart] >= 5e-12; ++k) {
      observed =
          std::log(errors[k] / errors[k + apart]) / (static_cast<double>(apart) * std::log(2.0));
    }
    return observed;
  };
  if (const auto observed = slope(2)) {
    EXPECT_NEAR(*observed, p, 0.1) << method << "; n:error" << trace.str();
    return;
  }
  // A method built for a tiny principal error leaves no h, h/4 pair above round-off. RK8(7)13M
  // (ode8): on x' = lambda x its local error is c9 z^9 + c10 z^10 + ... with c9 = -3.6e-9,
  // c10 = -3.3e-8 (z = lambda h), so the h^10 term dominates for |z| > 0.1 and below that the
  // error (~1e-18 per step) is round-off; here it falls from 2.0e-7 (n = 8) to 9.6e-13
  // (n = 32). Then the slope between h and h/2 must lie in [p, p + 1); that the order is
  // exactly p is shown by the order conditions (tableau_order_conditions_test.cpp).
  const auto observed = slope(1);
  ASSERT_TRUE(observed) << method << ": no pair above round-off; n:error" << trace.str();
  EXPECT_GE(*observed, p - 0.1) << method << "; n:error" << trace.str();
  EXPECT_LT(*observed, p + 1.0) << method << "; n:error" << trace.str();
}

// A method of order p integrates x' = q(t) exactly when deg q <= p - 1: its quadrature
// (b, c) is exact for such polynomials (order conditions b . c^(k-1) = 1/k, k <= p), so the
// error is round-off only, whatever the steps. 1e-12 relative: a few ulps per step.
TEST_P(MethodContract, IntegratesPolynomialsOfDegreeBelowOrderExactly) {
  const std::string& method = GetParam();
  const int p = sim::method_info(method).order;
  const int degree = p - 1;
  // q(t) = sum_k (k + 1) t^k, so x(t) = sum_k t^(k+1), x(2) = 2 + 4 + ... + 2^p.
  const sim::OdeSystem system(
      1,
      [degree](double t, const sim::Vector&, sim::Vector& dx) {
        double v = 0.0;
        for (int k = degree; k >= 0; --k) v = v * t + (k + 1.0);
        dx(0) = v;
      },
      [](double, const sim::Vector&, sim::Matrix& j) { j.setZero(1, 1); });
  double expected = 0.0;
  for (int k = 0; k <= degree; ++k) expected += std::pow(2.0, k + 1);
  auto stepper = sim::make_stepper(method);
  sim::StepperSettings s = tight();
  s.rtol = 1e-3;  // adaptive methods may take any steps: each one is exact
  s.atol = {1e-3};
  const auto r = drive(*stepper, system, 0.0, sim::Vector::Zero(1), 2.0, 0.25, s);
  EXPECT_NEAR(r.x_end(0), expected, 1e-12 * expected) << method << ", degree " << degree;
}

// Dense output within one step from exact data, at theta = 0.3 (not a node of any of our
// tableaux): the interpolant's local error is O(h^(q+1)) with q >= min(p, 3) (cubic Hermite
// is third order; a method's own extension may be better). Slope from h = 0.04 to 0.01, or,
// where the error at h = 0.01 is round-off (below 1e-13, ~500 ulps of x1 ~ 1: ode87's
// seventh-order dense output), from steps four times as long.
TEST_P(MethodContract, DenseOutputWithinAStepHasLocalOrder) {
  const std::string& method = GetParam();
  const int p = sim::method_info(method).order;
  const auto system = test_problem();
  auto interpolation_error = [&](double h) {
    auto stepper = sim::make_stepper(method);
    sim::StepperSettings s;
    s.rtol = 0.0;
    s.atol = {is_adaptive(method) ? 1.0 : 1e-15};  // adaptive: accept any step this small
    stepper->initialize(system, 0.0, x0(), s);
    sim::Vector x_new(2);
    const auto a = stepper->step(system, 0.0, x0(), h, x_new);
    EXPECT_TRUE(a.accepted);
    sim::Vector x_mid(2);
    stepper->interpolate(0.3 * h, x_mid);
    return (x_mid - exact(0.3 * h)).cwiseAbs().maxCoeff();
  };
  double h = 0.04;
  double e1 = interpolation_error(h);
  double e2 = interpolation_error(h / 4);
  for (; e2 < 1e-13 && h < 1.0; h *= 4) {
    e2 = e1;
    e1 = interpolation_error(4 * h);
  }
  const double observed = std::log(e1 / e2) / std::log(4.0);
  EXPECT_GE(observed, std::min(p, 3) + 1 - 0.1)
      << method << ": " << e1 << " -> " << e2 << " (h " << h << ")";
}

// What error-per-step control guarantees on this problem: each accepted step's local error
// is <= tol max(1, |x|) <= e tol (|x| <= e on [0, 1]), and local errors are amplified by at
// most e^L = e (|df/dx| <= 1 for x1; x2 contracts), so the global error is at most
// e^2 tol per step; 8 tol per accepted step is that bound. Methods that continue with
// the higher-order solution (ours) stay far below it; second-order methods without local
// extrapolation come within a factor ~5 of it at tight tolerances.
double controlled_error_bound(long accepted_steps, double tol) {
  return 8.0 * static_cast<double>(accepted_steps) * tol;
}

// Adaptive: the error is controlled (bound above), and tightening the tolerance by 10^4 cuts
// the global error by well over 30 (for an estimator of order q local errors scale like tol
// and the global error like tol^(p/(q+1)), at least tol^(2/3): a factor > 400).
TEST_P(MethodContract, GlobalErrorFallsWithTolerance) {
  const std::string& method = GetParam();
  if (!is_adaptive(method)) GTEST_SKIP() << "fixed step";
  const auto system = test_problem();
  double errors[2] = {0.0, 0.0};
  const double tols[2] = {1e-5, 1e-9};
  for (int k = 0; k < 2; ++k) {
    auto stepper = sim::make_stepper(method);
    const auto r = drive(*stepper, system, 0.0, x0(), 1.0, 0.0, tolerance(tols[k]));
    errors[k] = (r.x_end - exact(1.0)).cwiseAbs().maxCoeff();
    EXPECT_LT(errors[k], controlled_error_bound(r.accepted, tols[k]))
        << method << " tol " << tols[k] << ", " << r.accepted << " steps";
  }
  EXPECT_GT(errors[0] / errors[1], 30.0) << method << ": " << errors[0] << " vs " << errors[1];
}

// Dense output between the steps of a whole adaptive run is as accurate as the steps: the
// error at 200 points inside the steps stays within the bound of the step endpoints.
TEST_P(MethodContract, DenseOutputAccurateOverAWholeRun) {
  const std::string& method = GetParam();
  if (!is_adaptive(method)) GTEST_SKIP() << "fixed step: covered within a step";
  auto stepper = sim::make_stepper(method);
  const auto system = test_problem();
  double worst = 0.0;
  int queries = 0;
  sim::Vector x(2);
  const auto r = drive(*stepper, system, 0.0, x0(), 1.0, 0.0, tolerance(1e-7),
                       [&](double t_old, double t_new, const sim::Stepper& st) {
                         for (int k = 0; k < 200; ++k) {
                           const double t = (k + 0.5) / 200.0;
                           if (t <= t_old || t > t_new) continue;
                           st.interpolate(t, x);
                           worst = std::max(worst, (x - exact(t)).cwiseAbs().maxCoeff());
                           ++queries;
                         }
                       });
  EXPECT_EQ(queries, 200);
  EXPECT_LT(worst, controlled_error_bound(r.accepted, 1e-7)) << method;
}

TEST_P(MethodContract, MaxStepIsRespected) {
  const std::string& method = GetParam();
  sim::StepperSettings s;
  s.rtol = 1e-3;
  s.atol = {1e-3};  // loose: an unbounded adaptive method would take steps >> 0.01
  s.max_step = 0.01;
  auto stepper = sim::make_stepper(method);
  const auto system = test_problem();
  const auto r = drive(*stepper, system, 0.0, x0(), 1.0, is_adaptive(method) ? 0.0 : 0.01, s);
  EXPECT_LE(r.max_accepted_step, 0.01 * (1 + 1e-12)) << method;
  EXPECT_GE(r.accepted, 100);
}

TEST_P(MethodContract, StatisticsAgreeWithTheDriver) {
  const std::string& method = GetParam();
  sim::StepperSettings s;
  s.rtol = 1e-8;
  s.atol = {1e-8};
  auto stepper = sim::make_stepper(method);
  const auto system = test_problem();
  // Adaptive methods start with h = 1 (far too large at this tolerance), so they must reject.
  const auto r = drive(*stepper, system, 0.0, x0(), 1.0, is_adaptive(method) ? 1.0 : 0.05, s);
  EXPECT_EQ(stepper->statistics().accepted_steps, r.accepted) << method;
  if (is_adaptive(method)) {
    EXPECT_GT(r.rejected, 0) << method;
  } else {
    EXPECT_EQ(r.accepted, 20);
    EXPECT_EQ(r.rejected, 0);
  }
  EXPECT_GE(system.rhs_evaluations(), r.accepted) << method;
}

INSTANTIATE_TEST_SUITE_P(Registry, MethodContract, ::testing::ValuesIn(sim::method_names()),
                         [](const auto& test_info) { return test_info.param; });

}  // namespace
