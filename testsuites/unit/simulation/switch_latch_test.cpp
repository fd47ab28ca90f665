// The diagram switch latches its branch per step (Simulink's zero-crossing mode): every stage of
// a step uses the branch of the step's start, the located crossing of the control switches it.
// A fixed-step method then integrates each side with one smooth right-hand side and keeps its
// order; deciding per stage, a step straddling the crossing mixed the branches (order 1).
#include "diagram_test_support.hpp"

#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace simverify::simulation;
using namespace simverify::simulation::diagram;
using namespace simverify::simulation::diagram::testing;

constexpr double kSwitchAt = 0.55;
constexpr double kSwitchTf = 1.5;

// x' = -x before t = 0.55, x' = x + 1 from it on (a switch on the clock), x(0) = 1:
// x(1.5) = (e^-0.55 + 1) e^0.95 - 1.
DiagramModel clock_switch() {
  DiagramSpec d;
  d.name = "clock_switch";
  d.blocks = {block("x", "integrator", {number("x0", 1.0)}),
              block("clock", "clock"),
              block("neg", "gain", {number("k", -1.0)}),
              block("one", "constant", {number("value", 1.0)}),
              block("plus", "sum", {text("signs", "++")}),
              block("sw", "switch", {number("threshold", kSwitchAt)})};
  d.connections = {wire("x", "neg"),      wire("x", "plus.u1"),        wire("one", "plus.u2"),
                   wire("plus", "sw.u1"), wire("clock", "sw.control"), wire("neg", "sw.u2"),
                   wire("sw", "x")};
  d.outputs = {output("x", "x")};
  return DiagramModel(compile(d));
}

// x' = 1 while x < 1, x' = 2 x from x = 1 on (a switch on the state), x(0) = 0: x = t up to
// t = 1, then e^(2 (t - 1)); x(1.5) = e.
DiagramModel state_switch() {
  DiagramSpec d;
  d.name = "state_switch";
  d.blocks = {block("x", "integrator"), block("one", "constant", {number("value", 1.0)}),
              block("twice", "gain", {number("k", 2.0)}),
              block("sw", "switch", {number("threshold", 1.0)})};
  d.connections = {wire("x", "twice"), wire("twice", "sw.u1"), wire("x", "sw.control"),
                   wire("one", "sw.u2"), wire("sw", "x")};
  d.outputs = {output("x", "x")};
  return DiagramModel(compile(d));
}

std::vector<double> switch_errors(const DiagramModel& model, double exact, bool events,
                                  const char* what) {
  std::vector<double> errors;
  for (const double h : {0.1, 0.05, 0.025, 0.0125}) {
    SimulatorSettings s;
    s.method = "ode4";
    s.h = h;
    s.tf = kSwitchTf;
    s.events.enabled = events;
    s.record_trajectory = false;
    const auto run = Simulator(model, s).run();
    EXPECT_EQ(run.status, RunStatus::completed) << run.message;
    errors.push_back(std::abs(run.x_end[0] - exact));
    std::printf("%s, events %s, ode4 h = %g: |x(1.5) - exact| = %.3g\n", what,
                events ? "on" : "off", h, errors.back());
  }
  return errors;
}

// Halving h divides the error by 2^4 up to the next term: the observed order within 3.5..4.5
// (measured 3.9 to 4.1; before the latch 1.0 for the clock switch).
void expect_order_four(const std::vector<double>& errors) {
  for (std::size_t i = 1; i < errors.size(); ++i) {
    const double order = std::log2(errors[i - 1] / errors[i]);
    std::printf("  observed order %.2f\n", order);
    EXPECT_GE(order, 3.5);
    EXPECT_LE(order, 4.5);
  }
}

TEST(SwitchLatch, Ode4KeepsItsOrderAcrossALocatedSwitch) {
  const double clock_exact = (std::exp(-kSwitchAt) + 1.0) * std::exp(kSwitchTf - kSwitchAt) - 1.0;
  expect_order_four(switch_errors(clock_switch(), clock_exact, true, "switch on the clock"));
  expect_order_four(switch_errors(state_switch(), std::exp(1.0), true, "switch on the state"));
}

// Without event location the latch follows the control at the end of the step that crossed (a
// step event): first order, as any method that does not locate the discontinuity, but it
// converges and never mixes the branches within a step (measured: 0.27 at h = 0.1, whose step
// ends at 0.6; h = 0.05 and finer end a step on t = 0.55 itself and keep order 4).
TEST(SwitchLatch, WithoutEventsTheLatchSwitchesAtTheStepEnd) {
  const double clock_exact = (std::exp(-kSwitchAt) + 1.0) * std::exp(kSwitchTf - kSwitchAt) - 1.0;
  const auto errors = switch_errors(clock_switch(), clock_exact, false, "switch on the clock");
  for (std::size_t i = 1; i < errors.size(); ++i) {
    EXPECT_LE(errors[i], 0.6 * errors[i - 1]);  // halving h at least nearly halves it
  }
}

// A context no run set up (mode 0) is not latched: the switch decides by its control, as an
// output evaluated outside a run always did.
TEST(SwitchLatch, OutsideARunTheControlDecides) {
  const DiagramModel model = clock_switch();
  const std::vector<double> p = model.default_parameters();
  Context context;
  context.p = p;
  Vector y;
  Vector x = Vector::Constant(1, 2.0);
  Vector dxdt;
  model.rhs(0.5, x, context, dxdt);
  EXPECT_EQ(dxdt[0], -2.0);
  model.rhs(0.6, x, context, dxdt);
  EXPECT_EQ(dxdt[0], 3.0);
}

}  // namespace
