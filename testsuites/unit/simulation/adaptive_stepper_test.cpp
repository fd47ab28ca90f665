// The adaptive embedded Runge-Kutta methods (Def 3.32, Thm 3.34, 3.35, Alg 4): order of the
// embedded error estimate, f-evaluation bookkeeping (FSAL), step control, the error test of
// the Simulink solver list's eq. (3), and accuracy on the Arenstorf orbit (Hairer-Norsett-Wanner I,
// II.0).
#include "stepper_test_support.hpp"

#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <ostream>
#include <string>

namespace sim = simverify::simulation;
using sim::testing::drive;
using sim::testing::tolerance;

namespace {

// Restricted three-body problem (HNW I, eq. (0.1)): a satellite in the rotating frame of
// earth (mass 1 - mu) and moon (mu). State (y1, y2, y1', y2').
constexpr double kMu = 0.012277471;
constexpr double kPeriod = 17.0652165601579625588917206249;

sim::OdeSystem arenstorf() {
  return sim::OdeSystem(4, [](double, const sim::Vector& y, sim::Vector& dy) {
    const double mu_hat = 1.0 - kMu;
    const double d1 = std::pow((y(0) + kMu) * (y(0) + kMu) + y(1) * y(1), 1.5);
    const double d2 = std::pow((y(0) - mu_hat) * (y(0) - mu_hat) + y(1) * y(1), 1.5);
    dy(0) = y(2);
    dy(1) = y(3);
    dy(2) = y(0) + 2.0 * y(3) - mu_hat * (y(0) + kMu) / d1 - kMu * (y(0) - mu_hat) / d2;
    dy(3) = y(1) - 2.0 * y(2) - mu_hat * y(1) / d1 - kMu * y(1) / d2;
  });
}

// The orbit is periodic: after one period it returns to its initial state (the reference).
sim::Vector arenstorf_x0() {
  return sim::Vector{{0.994, 0.0, 0.0, -2.00158510637908252240537862224}};
}

struct PairCase {
  std::string method;
  int stages;
  int order;
  int embedded_order;
  // Not FSAL (rk43, Zonneveld's pair): f at the end of each accepted step is one more call.
  bool fsal = true;
  friend std::ostream& operator<<(std::ostream& os, const PairCase& c) { return os << c.method; }
};

class EmbeddedPair : public ::testing::TestWithParam<PairCase> {};

// Thm 3.34: e = Psi^2 - Psi^1 approximates the local error of the lower-order solution, so
// from exact data |e| ~ C h^(q+1), and the propagated solution's local error ~ C h^(p+1).
// With rtol = 0, atol = 1 the scaled error norm is max_i |e_i| itself. The harmonic
// oscillator (exact cos t, -sin t) is in the asymptotic regime already at h = 0.2 (measured
// with SciPy's coefficients: slopes 6.00/5.00 for 5(4), 5.00/4.00 for 4(3) at h = 0.2 ...
// 0.0125), while nonlinear test problems need h so small that the 5th-order local error
// (~1e-15) drowns in round-off. Slopes from h = 0.2 to 0.05; 0.1 of slack.
TEST_P(EmbeddedPair, ErrorEstimateAndLocalErrorHaveTheirOrders) {
  const auto& c = GetParam();
  const sim::OdeSystem system(2, [](double, const sim::Vector& x, sim::Vector& dx) {
    dx(0) = x(1);
    dx(1) = -x(0);
  });
  sim::StepperSettings s;
  s.rtol = 0.0;
  s.atol = {1.0};
  auto one_step = [&](double h, double& estimate, double& local) {
    auto stepper = sim::make_stepper(c.method);
    const sim::Vector x0{{1.0, 0.0}};
    stepper->initialize(system, 0.0, x0, s);
    sim::Vector x_new(2);
    const auto a = stepper->step(system, 0.0, x0, h, x_new);
    ASSERT_TRUE(a.accepted);
    estimate = a.error_norm;
    local = (x_new - sim::Vector{{std::cos(h), -std::sin(h)}}).cwiseAbs().maxCoeff();
  };
  double est1 = 0, loc1 = 0, est2 = 0, loc2 = 0;
  one_step(0.2, est1, loc1);
  one_step(0.05, est2, loc2);
  const double estimate_order = std::log(est1 / est2) / std::log(4.0);
  const double local_order = std::log(loc1 / loc2) / std::log(4.0);
  EXPECT_NEAR(estimate_order, c.embedded_order + 1, 0.1) << c.method;
  EXPECT_NEAR(local_order, c.order + 1, 0.1) << c.method;
}

// f evaluations: initial_step costs 2 (f(t0, x0), reused as k_1, and one Euler probe); every
// attempt then costs stages - 1, since k_1 is either the FSAL stage of the accepted step or
// the kept k_1 of the rejected one. Rejections are provoked by the first step h = 1 being
// far too large at 1e-8 (Arenstorf starts with |y''| ~ 3e2, starting next to the moon).
TEST_P(EmbeddedPair, CountsEvaluationsWithFsalReuse) {
  const auto& c = GetParam();
  const auto system = arenstorf();
  auto stepper = sim::make_stepper(c.method);
  // Initial step chosen automatically: 2 + (s - 1) (accepted + rejected).
  const auto r = drive(*stepper, system, 0.0, arenstorf_x0(), 2.0, 0.0, tolerance(1e-8));
  const long end_calls = c.fsal ? 0 : r.accepted;
  EXPECT_EQ(system.rhs_evaluations(), 2 + (c.stages - 1) * (r.accepted + r.rejected) + end_calls);
  EXPECT_EQ(stepper->statistics().accepted_steps, r.accepted);
  EXPECT_EQ(stepper->statistics().rejected_steps, r.rejected);

  // Given h = 1: the first attempt computes k_1 itself, and the rejections keep it.
  const auto system2 = arenstorf();
  auto stepper2 = sim::make_stepper(c.method);
  const auto r2 = drive(*stepper2, system2, 0.0, arenstorf_x0(), 2.0, 1.0, tolerance(1e-8));
  EXPECT_GT(r2.rejected, 0);
  EXPECT_EQ(system2.rhs_evaluations(),
            1 + (c.stages - 1) * (r2.accepted + r2.rejected) + (c.fsal ? 0 : r2.accepted));
}

// x' = g(t): a quadrature, where every stage of a step sees the same x, so an embedded pair
// whose b - b_hat only weighs stages at equal nodes (the lecture's rk43: h/6 (k_4 - k_5), both
// at c = 1) estimates 0 and steps over the run in a few huge steps (sin(pi t) to 9.3 at
// tol 1e-9: 8 steps, error 6.3). Each pair must resolve a smooth and a peaked g. Bound 1e-6:
// the local errors (<= ~1e-9 each at rtol = 1e-9 for |x| < 1) just add up for a quadrature
// (no amplification), a few hundred steps give < 1e-6; a vanishing estimate misses by O(1).
struct Quadrature {
  const char* name;
  double (*g)(double);
  double tf;
  double exact;
};

TEST(EmbeddedPairQuadrature, EstimatesTheErrorOfTimeOnlyRightHandSides) {
  const Quadrature cases[] = {
      {"sin(pi t)", [](double t) { return std::sin(M_PI * t); }, 9.3,
       (1.0 - std::cos(9.3 * M_PI)) / M_PI},
      {"runge 1/(1+25(t-1)^2)", [](double t) { return 1.0 / (1.0 + 25.0 * (t - 1.0) * (t - 1.0)); },
       3.0, (std::atan(10.0) + std::atan(5.0)) / 5.0},
  };
  for (const std::string method : {"rk43", "ode23", "ode45", "dopri54", "ode87"}) {
    for (const auto& q : cases) {
      const auto g = q.g;
      const sim::OdeSystem system(
          1, [g](double t, const sim::Vector&, sim::Vector& dx) { dx(0) = g(t); });
      auto stepper = sim::make_stepper(method);
      sim::StepperSettings s;
      s.rtol = 1e-9;
      s.atol = {1e-12};
      const auto r = drive(*stepper, system, 0.0, sim::Vector{{0.0}}, q.tf, 0.0, s);
      EXPECT_NEAR(r.x_end(0), q.exact, 1e-6)
          << method << " on x' = " << q.name << ": " << r.accepted << " steps";
    }
  }
}

// Arenstorf over one period: end error against the periodic initial state. Local errors are
// amplified along the orbit (it starts and ends next to the moon), so the end error is not bounded
// by tol itself; the bounds are the measured end errors (comment per case) times ~3, so a
// regression in step control or coefficients (which moves them by orders of magnitude)
// fails. An independent implementation agrees on the level: Boost.Odeint's dopri5 ends at
// 4.3e-3, 1.5e-4, 2.2e-6 at tol 1e-6, 1e-8, 1e-10 (bench/ode_peers_bench.cpp).
struct ArenstorfCase {
  std::string method;
  double tol;
  double max_error;
  friend std::ostream& operator<<(std::ostream& os, const ArenstorfCase& c) {
    return os << c.method << " tol " << c.tol;
  }
};

class Arenstorf : public ::testing::TestWithParam<ArenstorfCase> {};

TEST_P(Arenstorf, ReturnsToStartAfterOnePeriod) {
  const auto& c = GetParam();
  auto stepper = sim::make_stepper(c.method);
  const auto system = arenstorf();
  const auto r = drive(*stepper, system, 0.0, arenstorf_x0(), kPeriod, 0.0, tolerance(c.tol));
  const double error = (r.x_end - arenstorf_x0()).cwiseAbs().maxCoeff();
  EXPECT_LT(error, c.max_error) << c.method << " tol " << c.tol << ": " << r.accepted << " steps, "
                                << r.rejected << " rejected";
  RecordProperty("end_error", std::to_string(error));
}

INSTANTIATE_TEST_SUITE_P(Methods, EmbeddedPair,
                         ::testing::Values(PairCase{"rk43", 5, 4, 3, false},
                                           PairCase{"ode23", 4, 3, 2}, PairCase{"ode45", 7, 5, 4},
                                           PairCase{"dopri54", 7, 5, 4}),
                         [](const auto& test_info) { return test_info.param.method; });

INSTANTIATE_TEST_SUITE_P(Methods, Arenstorf,
                         ::testing::Values(ArenstorfCase{"ode45", 1e-6, 2e-2},    // measured 6.4e-3
                                           ArenstorfCase{"ode45", 1e-8, 2.5e-4},  // measured 7.6e-5
                                           ArenstorfCase{"ode45", 1e-10, 4e-6},   // measured 1.1e-6
                                           ArenstorfCase{"rk43", 1e-8, 8e-4},     // measured 2.4e-4
                                           ArenstorfCase{"ode23", 1e-8, 6e-4},    // measured 1.8e-4
                                           ArenstorfCase{"ode87", 1e-8, 1.2e-5},  // measured 4.1e-6
                                           ArenstorfCase{"ode87", 1e-10, 2e-7}),  // measured 6.2e-8
                         [](const auto& test_info) {
                           return test_info.param.method + "_tol" +
                                  std::to_string(
                                      static_cast<int>(-std::log10(test_info.param.tol)));
                         });

// The Simulink solver list's eq. (3): err_i <= max(rtol |x_i|, atol_i) per state. Two identical
// decoupled states, one with an absolute tolerance 1e4 times looser: the steps are governed by the
// strict one, so both end equally accurate; per-state atol must reach the right state.
TEST(ErrorTest, PerStateAbsoluteToleranceSelectsTheBindingState) {
  const sim::OdeSystem system(2, [](double, const sim::Vector& x, sim::Vector& dx) {
    dx(0) = -x(0);
    dx(1) = -x(1);
  });
  auto steps_with = [&](std::vector<double> atol) {
    sim::StepperSettings s;
    s.rtol = 0.0;
    s.atol = std::move(atol);
    auto stepper = sim::make_stepper("ode45");
    return drive(*stepper, system, 0.0, sim::Vector{{1.0, 1.0}}, 5.0, 0.0, s).accepted;
  };
  const long strict_first = steps_with({1e-10, 1e-6});
  const long strict_second = steps_with({1e-6, 1e-10});
  const long both_strict = steps_with({1e-10});
  const long both_loose = steps_with({1e-6});
  EXPECT_EQ(strict_first, both_strict);
  EXPECT_EQ(strict_second, both_strict);
  EXPECT_LT(both_loose, both_strict / 3);  // 1e4 looser: (1e4)^(1/5) ~ 6x fewer steps
}

TEST(ErrorTest, RejectsBadTolerancesNamingWhatWasExpected) {
  const auto system = arenstorf();
  auto stepper = sim::make_stepper("ode45");
  sim::StepperSettings s;
  s.atol = {1e-6, 1e-6};  // 2 entries for 4 states
  try {
    stepper->initialize(system, 0.0, arenstorf_x0(), s);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("one per state (4)"), std::string::npos) << e.what();
  }
  s.atol = {0.0};
  EXPECT_THROW(stepper->initialize(system, 0.0, arenstorf_x0(), s), std::invalid_argument);
  s.atol = {1e-6};
  s.rtol = -1.0;
  EXPECT_THROW(stepper->initialize(system, 0.0, arenstorf_x0(), s), std::invalid_argument);
}

// A right-hand side that returns NaN can never pass the error test; the stepper must stop
// with an error once h underflows instead of halving forever.
TEST(StepControl, NanRightHandSideEndsInStepSizeUnderflow) {
  const sim::OdeSystem system(1, [](double t, const sim::Vector&, sim::Vector& dx) {
    dx(0) = t > 0.5 ? std::numeric_limits<double>::quiet_NaN() : 1.0;
  });
  auto stepper = sim::make_stepper("ode23");
  EXPECT_THROW(drive(*stepper, system, 0.0, sim::Vector{{0.0}}, 1.0, 0.0, tolerance(1e-6)),
               std::runtime_error);
}

// Hairer's DOPRI5: after a rejection the next step may not grow, whatever the error says.
TEST(StepControl, NoGrowthRightAfterARejection) {
  const auto system = arenstorf();
  auto stepper = sim::make_stepper("ode45");
  stepper->initialize(system, 0.0, arenstorf_x0(), tolerance(1e-8));
  sim::Vector x_new(4);
  double h = 1.0;
  sim::StepAttempt a = stepper->step(system, 0.0, arenstorf_x0(), h, x_new);
  ASSERT_FALSE(a.accepted);
  EXPECT_GE(a.next_step, 0.2 * h);  // shrink limit
  while (!a.accepted) {
    h = a.next_step;
    a = stepper->step(system, 0.0, arenstorf_x0(), h, x_new);
  }
  EXPECT_LE(a.next_step, h);
}

TEST(StepControl, InitialStepIsWithinTheIntervalAndMaxStep) {
  const auto system = arenstorf();
  auto stepper = sim::make_stepper("ode45");
  auto s = tolerance(1e-6);
  stepper->initialize(system, 0.0, arenstorf_x0(), s);
  const double h = stepper->initial_step(system, 0.0, arenstorf_x0(), kPeriod);
  EXPECT_GT(h, 0.0);
  // |y''(0)| ~ 3e2, weights ~2e-6: HNW II.4 gives h ~ (0.01 / 8e7)^(1/5) ~ 0.01.
  EXPECT_LT(h, 0.1);
  s.max_step = 1e-4;
  stepper->initialize(system, 0.0, arenstorf_x0(), s);
  EXPECT_LE(stepper->initial_step(system, 0.0, arenstorf_x0(), kPeriod), 1e-4);
}

// Through the Simulator (Alg 7): ode45 on x' = lambda x, x(0) = 1 against exp(lambda t).
TEST(Simulator, RunsOde45WithinTolerance) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.tf = 2.0;
  s.parameters = {{"lambda", -1.5}};
  s.stepper = tolerance(1e-9);
  const auto run = sim::Simulator(*model, s).run();
  // Local errors <= 1e-9 |x|, decaying problem: the global error stays at that level.
  EXPECT_NEAR(run.x_end(0), std::exp(-3.0), 1e-8);
  EXPECT_GT(run.statistics.steps, 5);
}

}  // namespace
