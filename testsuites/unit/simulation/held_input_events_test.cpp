// Held inputs (`hold: T`) and noise draws are piecewise constant: their sample instants k T are
// jumps of u (InputSignal::next_jump), which the simulator steps onto for the run's u and a
// diagram reports as time events for its inports. Each piece is then integrated on its own, so a
// fixed-step method keeps its order and an adaptive one rejects no step at a sample. Checked
// against the exact piecewise solution of x' = -a x + u (a = 0: x(tf) = sum of T_k u_k).
#include "diagram_test_support.hpp"

#include <simverify/simulation/input_signal.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace sim = simverify::simulation;

namespace {

constexpr double kHoldT = 0.1;
constexpr double kSineFrequency = 1.0;
constexpr double kSinePhase = 0.3;

sim::InputPtr held_sine() {
  return sim::hold(sim::sine_input(1.0, kSineFrequency, kSinePhase), kHoldT);
}

// x(tf) of x' = -a x + u, x(0) = 0, u = the held sine: per piece [k T, min((k + 1) T, tf)) the
// exact update x <- e^(-a d) x + (1 - e^(-a d)) / a u_k (d u_k for a = 0), u_k read as the hold
// reads it (the sine at k T, the same double).
double held_sine_exact(double a, double tf) {
  const auto sine = sim::sine_input(1.0, kSineFrequency, kSinePhase);
  double x = 0.0;
  for (int k = 0; k * kHoldT < tf; ++k) {
    const double s = k * kHoldT;
    const double d = std::min((k + 1) * kHoldT, tf) - s;
    const double u = sine->at(s).value;
    x = a == 0.0 ? x + d * u : std::exp(-a * d) * x - std::expm1(-a * d) / a * u;
  }
  return x;
}

sim::SimulatorResult run_ou(double a, double tf, const std::string& method, double h,
                            const sim::InputPtr& u) {
  const auto model = sim::make_model("ornstein_uhlenbeck");
  sim::SimulatorSettings s;
  s.method = method;
  s.h = h;
  s.tf = tf;
  s.parameters = {{"a", a}};
  s.stepper.rtol = 1e-10;
  s.stepper.atol = {1e-10};
  s.record_trajectory = false;
  s.input = u;
  return sim::Simulator(*model, s).run();
}

// x' = u with a fixed step h that does not divide T (T / h = 3.33...): each piece is integrated
// exactly by any Runge-Kutta method (u constant on it), so only round-off is left: 64 eps per
// unit of |x| covers the sums of 10 pieces and 30-odd steps. Straddling steps left O(h).
TEST(HeldInputEvents, FixedStepIntegratesEachPieceExactly) {
  for (const double tf : {1.0, 0.95}) {
    const double exact = held_sine_exact(0.0, tf);
    for (const std::string method : {"ode1", "ode3", "ode4"}) {
      const auto run = run_ou(0.0, tf, method, 0.03, held_sine());
      const double error = std::abs(run.x_end[0] - exact);
      std::printf("x' = held sine, %s h = 0.03, tf = %g: |error| = %.3g\n", method.c_str(), tf,
                  error);
      EXPECT_LE(error, 64 * std::numeric_limits<double>::epsilon()) << method << " tf " << tf;
    }
  }
}

// x' = -x + u: ode4 with h = T / 3.3, T / 6.6, T / 13.2 converges at order 4 against the exact
// piecewise exponential update; a step straddling a sample made it order 1.
TEST(HeldInputEvents, Ode4ConvergesAtOrderFour) {
  const double exact = held_sine_exact(1.0, 1.0);
  std::vector<double> errors;
  for (const double h : {kHoldT / 3.3, kHoldT / 6.6, kHoldT / 13.2}) {
    errors.push_back(std::abs(run_ou(1.0, 1.0, "ode4", h, held_sine()).x_end[0] - exact));
    std::printf("x' = -x + held sine, ode4 h = %.5g: |error| = %.3g\n", h, errors.back());
  }
  for (std::size_t i = 1; i < errors.size(); ++i) {
    const double order = std::log2(errors[i - 1] / errors[i]);
    std::printf("  observed order %.2f\n", order);
    // Halving h, the error falls by 2^4 up to the next term (h^5: order within 3.7..4.3).
    EXPECT_GE(order, 3.7);
    EXPECT_LE(order, 4.3);
  }
}

// ode45 at rtol = atol = 1e-10: no step is rejected at a sample, and x(1) is the exact sum up to
// round-off; for the run's u and for a diagram inport bound to the same held signal (the samples
// are then the diagram's time events: 9 inside (0, 1) and the one on tf = 10 T).
TEST(HeldInputEvents, AdaptiveRejectsNoStepAtTheSamples) {
  const double exact = held_sine_exact(0.0, 1.0);
  const auto by_run = run_ou(0.0, 1.0, "ode45", 0.0, held_sine());
  std::printf("ode45 run's u: |error| = %.3g, %ld steps, %ld rejected, %lld f\n",
              std::abs(by_run.x_end[0] - exact), by_run.statistics.steps,
              by_run.statistics.rejected_steps,
              static_cast<long long>(by_run.statistics.rhs_evaluations));
  EXPECT_LE(std::abs(by_run.x_end[0] - exact), 64 * std::numeric_limits<double>::epsilon());
  EXPECT_EQ(by_run.statistics.rejected_steps, 0);

  namespace dt = sim::diagram::testing;
  sim::diagram::DiagramSpec d;
  d.name = "held";
  d.blocks = {dt::block("u", "inport"), dt::block("x", "integrator")};
  d.connections = {dt::wire("u", "x")};
  const sim::diagram::DiagramModel model(sim::diagram::compile(d), {{"u", held_sine()}});
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.tf = 1.0;
  s.stepper.rtol = 1e-10;
  s.stepper.atol = {1e-10};
  s.record_trajectory = false;
  const auto by_inport = sim::Simulator(model, s).run();
  std::printf("ode45 inport: |error| = %.3g, %ld steps, %ld rejected, %ld time events\n",
              std::abs(by_inport.x_end[0] - exact), by_inport.statistics.steps,
              by_inport.statistics.rejected_steps, by_inport.statistics.time_events);
  EXPECT_LE(std::abs(by_inport.x_end[0] - exact), 64 * std::numeric_limits<double>::epsilon());
  EXPECT_EQ(by_inport.statistics.rejected_steps, 0);
  EXPECT_EQ(by_inport.statistics.time_events, 10);
}

// The noise input without a sampling grid: its draws' intervals are jumps too, so x' = nu
// integrates to hold * sum nu_j with any method (here ode4 with a step that does not divide the
// hold, and ode45), each draw over its own interval.
TEST(HeldInputEvents, NoiseDrawsAreSteppedOnto) {
  const double hold = 0.1;
  const auto noise = sim::noise_input(0.0, 1.0, hold, 7);
  double exact = 0.0;
  for (int j = 0; j < 10; ++j) exact += hold * noise->at((j + 0.5) * hold).value;
  for (const auto& [method, h] : {std::pair<std::string, double>{"ode4", 0.03}, {"ode45", 0.0}}) {
    const auto run = run_ou(0.0, 1.0, method, h, noise);
    std::printf("x' = noise, %s: |error| = %.3g, %ld rejected\n", method.c_str(),
                std::abs(run.x_end[0] - exact), run.statistics.rejected_steps);
    // 10 draws of size ~ 1 / sqrt(hold) ~ 3: 64 eps per unit of the terms summed.
    EXPECT_LE(std::abs(run.x_end[0] - exact), 64 * 10 * std::numeric_limits<double>::epsilon())
        << method;
    EXPECT_EQ(run.statistics.rejected_steps, 0) << method;
  }
}

// The value on [k T, (k + 1) T) is the sample at k T on both sides of a jump: the jump the
// simulator steps onto is reported where at() changes, at() there is the new sample and just
// before it the old one; the snap of a time within round-off below k T (0.3 for 3 x 0.1) holds.
TEST(HeldInputEvents, JumpInstantsAgreeWithTheValues) {
  const auto u = held_sine();
  const auto sine = sim::sine_input(1.0, kSineFrequency, kSinePhase);
  double t = 0.0;
  for (int k = 1; k <= 20; ++k) {
    const double jump = u->next_jump(t);
    EXPECT_NEAR(jump, k * kHoldT, 64 * std::numeric_limits<double>::epsilon() * k * kHoldT);
    EXPECT_EQ(u->at(jump).value, sine->at(k * kHoldT).value) << k;
    EXPECT_EQ(u->at(std::nextafter(jump, 0.0)).value, sine->at((k - 1) * kHoldT).value) << k;
    t = jump;
  }
  EXPECT_EQ(u->at(0.3).value, sine->at(3 * kHoldT).value);
  EXPECT_EQ(u->next_jump(0.3), u->next_jump(3 * kHoldT));
  EXPECT_EQ(u->at(0.35).value, sine->at(3 * kHoldT).value);
}

}  // namespace
