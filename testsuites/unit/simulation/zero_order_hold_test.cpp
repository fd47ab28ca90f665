// The zero_order_hold block against its analytic behaviour: the held signal is the sampled
// staircase exactly, the sampling instants are time events no step straddles (with every
// kind of method), and a sampled-data loop follows its difference equation in closed form.
#include "diagram_test_support.hpp"

#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace {

using namespace simverify::simulation;
using namespace simverify::simulation::diagram;
using namespace simverify::simulation::diagram::testing;

// A signal source held with sample time T, the hold's output measured as y.held.
DiagramModel held_signal(const BlockSpec& source, double T) {
  DiagramSpec d;
  d.name = "held";
  d.blocks = {source, block("hold", "zero_order_hold", {number("T", T)})};
  d.connections = {wire(source.name, "hold")};
  d.outputs = {output("held", "hold")};
  return DiagramModel(compile(d));
}

SimulatorSettings at_times(const std::string& method, double tf, std::vector<double> times) {
  SimulatorSettings s;
  s.method = method;
  s.tf = tf;
  s.h = 0.1;
  s.record_outputs = true;
  s.output_times = std::move(times);
  return s;
}

TEST(ZeroOrderHold, HoldsTheClockAsAStaircase) {
  const double T = 0.25;
  const DiagramModel model = held_signal(block("time", "clock"), T);
  std::vector<double> times;
  // Off the sampling instants (at an instant the recorded value is the one before the sample).
  for (int i = 0; i < 66; ++i) times.push_back(0.001 + 0.03 * i);
  for (const char* method : {"ode45", "ode4", "ode15s"}) {
    const auto run = Simulator(model, at_times(method, 2.0, times)).run();
    ASSERT_EQ(run.trajectory.size(), times.size()) << method;
    for (std::size_t i = 0; i < times.size(); ++i) {
      const double t = run.trajectory.time[i];
      // Between samples the hold is a state with zero derivative: every method keeps it
      // exactly; the sample is the clock at the instant the simulator landed on, k T up to
      // the rounding of its time arithmetic (a few ulps of t <= 2).
      EXPECT_NEAR(run.trajectory.outputs[i][0], std::floor(t / T) * T, 1e-14)
          << method << " at t = " << t;
    }
  }
}

TEST(ZeroOrderHold, HoldsASineAtItsSamples) {
  const double T = 0.1;
  const InputPtr sine = sine_input(1.0, 1.3, 0.0);
  BlockSpec source = block("u", "signal");
  source.signal = sine;
  const DiagramModel model = held_signal(source, T);
  std::vector<double> times;
  for (int i = 0; i < 100; ++i) times.push_back(0.0137 + 0.0199 * i);
  const auto run = Simulator(model, at_times("ode45", 2.0, times)).run();
  for (std::size_t i = 0; i < times.size(); ++i) {
    const double t_k = std::floor(times[i] / T) * T;
    // The simulator lands on t_k = k T up to rounding (a few ulps of t <= 2); the sine's
    // slope 2 pi 1.3 = 8.2 turns that into well under 1e-14.
    EXPECT_NEAR(run.trajectory.outputs[i][0], sine->at(t_k).value, 1e-14) << "t = " << times[i];
  }
}

// x' = -a zoh(x): a continuous plant integrating a sampled feedback. Over each sample
// interval the derivative is the constant -a x_k, so x_{k+1} = (1 - a T) x_k and between
// samples x is linear: x(t) = x_k (1 - a (t - t_k)). Every method integrates a linear
// function exactly, so any error beyond rounding means a step straddled a sampling instant.
TEST(ZeroOrderHold, SampledLoopFollowsItsDifferenceEquation) {
  const double a = 1.5;
  const double T = 0.2;
  DiagramSpec d;
  d.name = "sampled_loop";
  d.blocks = {block("x", "integrator", {number("x0", 1.0)}),
              block("hold", "zero_order_hold", {number("T", T)}),
              block("feedback", "gain", {number("k", -a)})};
  d.connections = {wire("x", "hold"), wire("hold", "feedback"), wire("feedback", "x")};
  d.outputs = {output("x", "x")};
  const DiagramModel model(compile(d));
  EXPECT_EQ(model.info().states, (std::vector<std::string>{"x", "hold"}));
  EXPECT_NE(model.diagram().describe().find("sampled at t = k T (time events): hold"),
            std::string::npos)
      << model.diagram().describe();
  for (const char* method : {"ode45", "ode23", "ode4", "euler", "ode15s", "radau2a", "ode113"}) {
    SimulatorSettings s;
    s.method = method;
    s.tf = 3.0;
    s.h = 0.07;             // fixed-step methods: 0.07 does not divide T, the sample ends a step
    s.stepper.rtol = 1e-3;  // loose: adaptive steps would grow far past T if not stopped
    const auto run = Simulator(model, s).run();
    ASSERT_EQ(run.status, RunStatus::completed) << method << ": " << run.message;
    for (std::size_t i = 0; i < run.trajectory.size(); ++i) {
      const double t = run.trajectory.time[i];
      const double k = std::floor(t / T + 1e-9);
      const double x_k = std::pow(1.0 - a * T, k);
      // Rounding only: ~15 sample intervals of a few operations each.
      EXPECT_NEAR(run.trajectory.states[i][0], x_k * (1.0 - a * (t - k * T)), 1e-12)
          << method << " at t = " << t;
    }
    EXPECT_NEAR(run.x_end[0], std::pow(1.0 - a * T, 15.0), 1e-12) << method;
    // t0, t = 0.2, ..., 2.8 and tf = 3.0 = 15 T: the sample at tf is taken too (the grid (3.7)
    // includes it; Simulink executes a sample hit at the stop time), the hold ends holding x(3).
    EXPECT_EQ(run.statistics.time_events, 16) << method;
    EXPECT_NEAR(run.x_end[1], std::pow(1.0 - a * T, 15.0), 1e-12) << method;
    // The trajectory shows both sides at tf, as at every other instant: x(3) with the hold's
    // old sample x(2.8), then with the new one.
    const auto& states = run.trajectory.states;
    ASSERT_GE(states.size(), 2u);
    EXPECT_EQ(run.trajectory.time[states.size() - 2], run.trajectory.time.back()) << method;
    EXPECT_NEAR(states[states.size() - 2][1], std::pow(1.0 - a * T, 14.0), 1e-12) << method;
    EXPECT_NEAR(states.back()[1], std::pow(1.0 - a * T, 15.0), 1e-12) << method;
  }
}

TEST(ZeroOrderHold, HoldsInAChainShowTheSameSample) {
  // Direct feed-through at the sampling instant (as Simulink's ZOH): a hold after a hold of
  // the same period shows the new sample at once, not one period late.
  DiagramSpec d;
  d.name = "chain";
  d.blocks = {block("first", "zero_order_hold", {number("T", 0.5)}), block("time", "clock"),
              block("second", "zero_order_hold", {number("T", 0.5)})};
  d.connections = {wire("time", "first"), wire("first", "second")};
  d.outputs = {output("first", "first"), output("second", "second")};
  const DiagramModel model(compile(d));
  const auto run = Simulator(model, at_times("ode45", 2.0, {0.1, 0.7, 1.2, 1.9})).run();
  for (std::size_t i = 0; i < 4; ++i) {
    const double t_k = std::floor(run.trajectory.time[i] / 0.5) * 0.5;
    EXPECT_EQ(run.trajectory.outputs[i][0], t_k);
    EXPECT_EQ(run.trajectory.outputs[i][1], t_k);
  }
}

TEST(ZeroOrderHold, SamplesAtTheStartWhateverTheGivenInitialState) {
  const DiagramModel model = held_signal(block("c", "constant", {number("value", 4.0)}), 1.0);
  SimulatorSettings s = at_times("ode45", 0.5, {0.25});
  s.x0 = Vector::Constant(1, -7.0);  // a stale held value: replaced by u(t0) at t0
  const auto run = Simulator(model, s).run();
  EXPECT_EQ(run.trajectory.outputs[0][0], 4.0);
}

TEST(ZeroOrderHold, SampleTimeMustBePositive) {
  DiagramSpec d;
  d.name = "bad";
  d.blocks = {block("c", "constant", {number("value", 1.0)}),
              block("hold", "zero_order_hold", {number("T", 0.0)})};
  d.connections = {wire("c", "hold")};
  try {
    static_cast<void>(compile(d));
    FAIL() << "T = 0 compiled";
  } catch (const DiagramError& e) {
    EXPECT_NE(std::string(e.what()).find("sample time must be a positive number"),
              std::string::npos)
        << e.what();
  }
  // Overridden at run time (p.hold.T): an error of that run, not an endless loop.
  d.blocks[1] = block("hold", "zero_order_hold", {number("T", 1.0)});
  const DiagramModel model(compile(d));
  SimulatorSettings s;
  s.parameters = {{"hold.T", -1.0}};
  EXPECT_THROW(static_cast<void>(Simulator(model, s).run()), std::runtime_error);
}

}  // namespace

namespace {

// A T the run cannot resolve (t + T == t) or whose instants alone trip the Zeno guard (20
// events within 1e-6 max(1, tf - t0)) used to run: stopped at the guard (t_end 1.9e-9, or 0)
// with a final value that passed a requirement. The simulator refuses both before running,
// from the file's T and from an override, naming the hold.
TEST(ZeroOrderHold, SampleTimesTheRunCannotAdvanceAreRefusedBeforeRunning) {
  for (const double T : {1e-300, 1e-16, 1e-10}) {
    const DiagramModel model = held_signal(block("time", "clock"), T);
    SimulatorSettings s;
    s.method = "ode45";
    s.tf = 1.0;
    try {
      (void)Simulator(model, s);
      ADD_FAILURE() << "T = " << T << " not refused";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("simulator: zero_order_hold 'hold' T = "), std::string::npos) << what;
      EXPECT_NE(what.find(T < 1e-13 ? "is below the time resolution of the run"
                                    : "puts 20 sampling instants into the Zeno guard's window"),
                std::string::npos)
          << what;
    }
  }
  const DiagramModel model = held_signal(block("time", "clock"), 0.1);
  SimulatorSettings s;
  s.method = "ode45";
  s.tf = 1.0;
  s.parameters = {{"hold.T", 1e-10}};
  EXPECT_THROW((void)Simulator(model, s), std::invalid_argument);
  // 6e-8 s: 19 periods are more than the window of 1e-6 s, so it runs (~a thousand samples).
  s.parameters = {{"hold.T", 6e-8}};
  s.tf = 6e-5;
  s.record_outputs = true;
  const auto run = Simulator(model, s).run();
  EXPECT_EQ(run.status, RunStatus::completed);
  EXPECT_EQ(run.t_end, 6e-5);
}

}  // namespace
