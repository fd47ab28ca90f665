// Runge-Kutta-Nystrom methods (rkn4, rkn64, and any method registered with second_order):
// the contract of method_contract_test.cpp on a second-order problem with known solution,
// their evaluation counts, and the point the simulation-practice article makes for them:
// the same accuracy with fewer evaluations of f than the general Runge-Kutta methods.
#include "stepper_test_support.hpp"

#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace sim = simverify::simulation;
using sim::testing::drive;

namespace {

// q1 = exp(sin t):  q1'' = (cos^2 t - sin t) q1   (non-autonomous, linear in q)
// q2 = 1 / (1 + t): q2'' = 2 q2^3                  (autonomous, nonlinear)
// States interleaved (q1, v1, q2, v2), so positions and velocities are not contiguous.
sim::Vector exact_oscillator(double t) {
  const double e = std::exp(std::sin(t));
  return sim::Vector{{e, std::cos(t) * e, 1.0 / (1.0 + t), -1.0 / ((1.0 + t) * (1.0 + t))}};
}

void acceleration(double t, const sim::Vector& q, sim::Vector& a) {
  a.resize(2);
  a << (std::cos(t) * std::cos(t) - std::sin(t)) * q(0), 2.0 * q(1) * q(1) * q(1);
}

sim::OdeSystem second_order_problem() {
  sim::OdeSystem system(4, [](double t, const sim::Vector& x, sim::Vector& dx) {
    sim::Vector a;
    acceleration(t, sim::Vector{{x(0), x(2)}}, a);
    dx << x(1), a(0), x(3), a(1);
  });
  system.set_second_order({{0, 2}, {1, 3}, acceleration});
  return system;
}

std::vector<std::string> nystrom_methods() {
  std::vector<std::string> out;
  for (const auto& name : sim::method_names()) {
    if (sim::method_info(name).second_order) out.push_back(name);
  }
  return out;
}

bool is_adaptive_nystrom(const std::string& method) {
  return sim::method_info(method).control == sim::StepControl::adaptive;
}

// Accepts every step: an adaptive method run with fixed steps.
sim::StepperSettings accept_all() {
  sim::StepperSettings s;
  s.rtol = 0.0;
  s.atol = {1e6};
  return s;
}

// Fixed steps h = tf / n with any method (adaptive ones accept everything).
sim::Vector fixed_steps(const std::string& method, const sim::OdeSystem& system, double tf, int n) {
  auto stepper = sim::make_stepper(method);
  stepper->initialize(system, 0.0, exact_oscillator(0.0), accept_all());
  sim::Vector x = exact_oscillator(0.0), x_new(4);
  const double h = tf / n;
  for (int k = 0; k < n; ++k) {
    EXPECT_TRUE(stepper->step(system, k * h, x, h, x_new).accepted);
    x = x_new;
  }
  return x;
}

class NystromContract : public ::testing::TestWithParam<std::string> {};

TEST_P(NystromContract, InfoMatchesStepper) {
  const auto& info = sim::method_info(GetParam());
  const auto stepper = sim::make_stepper(GetParam());
  EXPECT_EQ(stepper->order(), info.order);
  EXPECT_EQ(stepper->control(), info.control);
  EXPECT_TRUE(info.second_order);
}

// Global error at t = 2 over n = 8 .. 256 steps: the slope between h and h/4 is the order.
TEST_P(NystromContract, ObservedOrderIsNominal) {
  const std::string& method = GetParam();
  const int p = sim::method_info(method).order;
  const auto system = second_order_problem();
  std::vector<double> errors;
  for (int n = 8; n <= 256; n *= 2) {
    errors.push_back(
        (fixed_steps(method, system, 2.0, n) - exact_oscillator(2.0)).cwiseAbs().maxCoeff());
  }
  double observed = 0.0;
  for (std::size_t k = 0; k + 2 < errors.size() && errors[k + 2] > 1e-12; ++k) {
    observed = std::log(errors[k] / errors[k + 2]) / (2.0 * std::log(2.0));
  }
  EXPECT_NEAR(observed, p, 0.15) << method << ": errors " << errors.front() << " .. "
                                 << errors.back();
}

// q'' = a polynomial of degree p - 2 in t is integrated exactly (the quadrature conditions
// b . c^k = 1/((k+1)(k+2)), b' . c^k = 1/(k+1) of the trees with leaves only): round-off.
TEST_P(NystromContract, IntegratesPolynomialAccelerationExactly) {
  const std::string& method = GetParam();
  const int degree = sim::method_info(method).order - 2;
  // g = sum_k (k+1)(k+2) t^k, so q = sum_k t^(k+2) and v = sum_k (k+2) t^(k+1).
  sim::OdeSystem system(2, [degree](double t, const sim::Vector& x, sim::Vector& dx) {
    double g = 0.0;
    for (int k = degree; k >= 0; --k) g = g * t + (k + 1.0) * (k + 2.0);
    dx << x(1), g;
  });
  system.set_second_order({{0}, {1}, [degree](double t, const sim::Vector&, sim::Vector& a) {
                             double g = 0.0;
                             for (int k = degree; k >= 0; --k) g = g * t + (k + 1.0) * (k + 2.0);
                             a.resize(1);
                             a(0) = g;
                           }});
  double q = 0.0, v = 0.0;
  for (int k = 0; k <= degree; ++k) {
    q += std::pow(2.0, k + 2);
    v += (k + 2.0) * std::pow(2.0, k + 1);
  }
  auto stepper = sim::make_stepper(method);
  sim::StepperSettings s;
  s.rtol = 1e-3;
  s.atol = {1e-3};
  const auto r = drive(*stepper, system, 0.0, sim::Vector::Zero(2), 2.0, 0.25, s);
  EXPECT_NEAR(r.x_end(0), q, 1e-12 * q) << method;
  EXPECT_NEAR(r.x_end(1), v, 1e-12 * v) << method;
}

// The quintic Hermite dense output within one step from exact data, at theta = 0.3: local
// error O(h^6) in q from the interpolation, O(h^5) in v (its derivative), plus the end
// values' own local errors O(h^(p+1)), which the derivative divides by h for v: the slope
// from h = 0.04 to 0.01 is at least min(p, 5) (rkn4: 4, rkn64: 5).
TEST_P(NystromContract, DenseOutputWithinAStepHasLocalOrder) {
  const std::string& method = GetParam();
  const int p = sim::method_info(method).order;
  const auto system = second_order_problem();
  auto interpolation_error = [&](double h) {
    auto stepper = sim::make_stepper(method);
    stepper->initialize(system, 0.0, exact_oscillator(0.0), accept_all());
    sim::Vector x_new(4), x_mid(4);
    EXPECT_TRUE(stepper->step(system, 0.0, exact_oscillator(0.0), h, x_new).accepted);
    stepper->interpolate(0.3 * h, x_mid);
    sim::Vector at_end(4);
    stepper->interpolate(h, at_end);
    EXPECT_LT((at_end - x_new).cwiseAbs().maxCoeff(), 1e-15) << "the interpolant ends at x_new";
    return (x_mid - exact_oscillator(0.3 * h)).cwiseAbs().maxCoeff();
  };
  const double e1 = interpolation_error(0.04);
  const double e2 = interpolation_error(0.01);
  EXPECT_GE(std::log(e1 / e2) / std::log(4.0), std::min(p, 5) - 0.1)
      << method << ": " << e1 << " -> " << e2;
}

// Adaptive: tightening the tolerance by 10^4 cuts the global error by well over 30, and the
// dense output between the steps is as accurate as the steps (8 tol per step, as in
// method_contract_test.cpp).
TEST_P(NystromContract, AdaptiveErrorFallsWithToleranceAndDenseOutputKeepsUp) {
  const std::string& method = GetParam();
  if (!is_adaptive_nystrom(method)) GTEST_SKIP() << "fixed step";
  const auto system = second_order_problem();
  double errors[2] = {0.0, 0.0};
  const double tols[2] = {1e-5, 1e-9};
  for (int k = 0; k < 2; ++k) {
    auto stepper = sim::make_stepper(method);
    sim::StepperSettings s;
    s.rtol = tols[k];
    s.atol = {tols[k]};
    double worst_dense = 0.0;
    sim::Vector x(4);
    const auto r = drive(*stepper, system, 0.0, exact_oscillator(0.0), 2.0, 0.0, s,
                         [&](double t_old, double t_new, const sim::Stepper& st) {
                           const double t = 0.5 * (t_old + t_new);
                           st.interpolate(t, x);
                           worst_dense = std::max(worst_dense,
                                                  (x - exact_oscillator(t)).cwiseAbs().maxCoeff());
                         });
    errors[k] = (r.x_end - exact_oscillator(2.0)).cwiseAbs().maxCoeff();
    const double bound = 8.0 * static_cast<double>(r.accepted) * tols[k];
    EXPECT_LT(errors[k], bound) << method << " tol " << tols[k];
    EXPECT_LT(worst_dense, bound) << method << " tol " << tols[k];
  }
  EXPECT_GT(errors[0] / errors[1], 30.0) << method << ": " << errors[0] << " vs " << errors[1];
}

// Evaluations of g: rkn4 three per step; rkn64 five per attempt (FSAL: the sixth stage is
// the next step's first, also after a rejection) plus two for the starting step size.
TEST_P(NystromContract, CountsItsEvaluations) {
  const std::string& method = GetParam();
  const auto system = second_order_problem();
  auto stepper = sim::make_stepper(method);
  sim::StepperSettings s;
  s.rtol = 1e-8;
  s.atol = {1e-8};
  const auto r = drive(*stepper, system, 0.0, exact_oscillator(0.0), 1.0,
                       is_adaptive_nystrom(method) ? 0.0 : 0.05, s);
  EXPECT_EQ(stepper->statistics().accepted_steps, r.accepted);
  if (method == "rkn4") {
    EXPECT_EQ(system.rhs_evaluations(), 3 * 20);
  } else if (method == "rkn64") {
    EXPECT_EQ(system.rhs_evaluations(), 2 + 5 * (r.accepted + r.rejected));
  }
}

TEST_P(NystromContract, RefusesASystemWithoutSecondOrderStructure) {
  const sim::OdeSystem first_order(1,
                                   [](double, const sim::Vector& x, sim::Vector& dx) { dx = -x; });
  auto stepper = sim::make_stepper(GetParam());
  try {
    stepper->initialize(first_order, 0.0, sim::Vector::Ones(1), sim::StepperSettings{});
    FAIL() << "initialized without x'' = g(t, q)";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("x'' = g(t, q)"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, NystromContract, ::testing::ValuesIn(nystrom_methods()),
                         [](const auto& test_info) { return test_info.param; });

TEST(NystromMethods, AreRkn4AndRkn64) {
  EXPECT_EQ(nystrom_methods(), (std::vector<std::string>{"rkn4", "rkn64"}));
}

// ---- through the Simulator, with the shipped models ---------------------------------------

sim::SimulatorResult run_nystrom(const std::string& model_name, const std::string& method, double h,
                                 double rtol, std::vector<std::pair<std::string, double>> p = {}) {
  const auto model = sim::make_model(model_name);
  sim::SimulatorSettings s;
  s.method = method;
  s.h = h;
  s.tf = model->info().default_tf;
  s.stepper.rtol = rtol;
  s.stepper.atol = {rtol};
  s.parameters = std::move(p);
  s.record_trajectory = false;
  return sim::Simulator(*model, s).run();
}

// Harmonic oscillator, 10 periods: rkn4 with 3 evaluations per step is as accurate as rk4
// with 4 (its error constant is smaller here), i.e. the same accuracy for 3/4 of the work.
TEST(NystromSimulator, Rkn4MatchesRk4WithThreeQuartersOfTheEvaluations) {
  const auto model = sim::make_model("harmonic_oscillator");
  const sim::Vector exact_end{{1.0, 0.0}};  // ten full periods of omega = 2 pi
  const auto rkn4 = run_nystrom("harmonic_oscillator", "rkn4", 0.01, 1e-3);
  const auto rk4 = run_nystrom("harmonic_oscillator", "rk4", 0.01, 1e-3);
  const double e_rkn4 = (rkn4.x_end - exact_end).cwiseAbs().maxCoeff();
  const double e_rk4 = (rk4.x_end - exact_end).cwiseAbs().maxCoeff();
  EXPECT_LE(e_rkn4, e_rk4) << e_rkn4 << " vs " << e_rk4;
  EXPECT_EQ(rkn4.statistics.rhs_evaluations * 4, rk4.statistics.rhs_evaluations * 3);
}

// Spring pendulum (nonlinear, 10 s): rkn64 at rtol 1e-9 against the reference of ode45 at
// rtol 1e-13; ode45 reaches the same error only with at least 1.5 times the evaluations
// (the article: "more than 50 %"), searched over rtol 10^-k/2.
TEST(NystromSimulator, Rkn64ReachesTheAccuracyOfOde45WithFewerEvaluations) {
  const auto reference = run_nystrom("spring_pendulum", "ode45", 0.0, 1e-13);
  const auto rkn64 = run_nystrom("spring_pendulum", "rkn64", 0.0, 1e-9);
  const double target = (rkn64.x_end - reference.x_end).cwiseAbs().maxCoeff();
  long ode45_evals = 0;
  for (double k = 6.0; k <= 13.0; k += 0.5) {
    const auto ode45 = run_nystrom("spring_pendulum", "ode45", 0.0, std::pow(10.0, -k));
    if ((ode45.x_end - reference.x_end).cwiseAbs().maxCoeff() <= target) {
      ode45_evals = ode45.statistics.rhs_evaluations;
      break;
    }
  }
  ASSERT_GT(ode45_evals, 0) << "ode45 never reached " << target;
  EXPECT_GE(static_cast<double>(ode45_evals),
            1.5 * static_cast<double>(rkn64.statistics.rhs_evaluations))
      << "ode45 " << ode45_evals << ", rkn64 " << rkn64.statistics.rhs_evaluations << " for error "
      << target;
}

// Conservative: at rtol 1e-10 the energy drifts by less than 1e-7 J of its ~ -10 J.
TEST(NystromSimulator, SpringPendulumConservesEnergy) {
  const auto model = sim::make_model("spring_pendulum");
  sim::SimulatorSettings s;
  s.method = "rkn64";
  s.tf = 20.0;
  s.stepper.rtol = 1e-10;
  s.stepper.atol = {1e-10};
  s.record_outputs = true;
  const auto r = sim::Simulator(*model, s).run();
  const auto& outputs = r.trajectory.outputs;
  ASSERT_GT(outputs.size(), 10U);
  double drift = 0.0;
  for (const auto& y : outputs) drift = std::max(drift, std::abs(y(4) - outputs.front()(4)));
  EXPECT_LT(drift, 1e-7);
}

// Vertical throw without drag: y'' = -g is a polynomial, integrated exactly.
TEST(NystromSimulator, VerticalThrowIsExact) {
  const auto r = run_nystrom("vertical_throw", "rkn4", 0.1, 1e-3);
  const double t = r.t_end;  // the ground event ends the run
  EXPECT_NEAR(t, std::sqrt(2.0 * 100.0 / 9.81), 1e-9);
}

TEST(NystromSimulator, ModelsWithoutTheStructureAreRefusedNamingTheMethodsThatFit) {
  try {
    (void)run_nystrom("van_der_pol", "rkn64", 0.0, 1e-6);
    FAIL() << "van_der_pol has no x'' = g(t, q)";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'rkn64' is a Runge-Kutta-Nystrom method"), std::string::npos) << what;
    EXPECT_NE(what.find("model 'van_der_pol' does not declare"), std::string::npos) << what;
    EXPECT_NE(what.find("Methods that fit: "), std::string::npos) << what;
    EXPECT_NE(what.find("ode45"), std::string::npos) << what;
    EXPECT_EQ(what.find("rkn4"), std::string::npos) << what;
  }
  try {
    (void)run_nystrom("vertical_throw", "rkn4", 0.1, 1e-3, {{"drag", 0.5}});
    FAIL() << "with drag the acceleration depends on the velocity";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("drag = 0.5"), std::string::npos) << e.what();
  }
}

}  // namespace
