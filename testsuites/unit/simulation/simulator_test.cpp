// Simulator (Alg 7): output times from dense output, accepted steps only, statistics,
// validation.
#include <simverify/simulation/input_signal.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include "simulator_test_models.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace sim = simverify::simulation;

namespace {

double exact_exponential(double t, double lambda) {
  return std::exp(lambda * t);
}

}  // namespace

TEST(Simulator, FixedStepRecordsEveryAcceptedStepOnTheGrid) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode4";
  s.h = 0.1;
  s.tf = 1.0;
  const auto run = sim::Simulator(*model, s).run();
  ASSERT_EQ(run.trajectory.size(), 11U);
  for (std::size_t i = 0; i < run.trajectory.size(); ++i) {
    // t = t0 + n h by multiplication, so no round-off drift accumulates.
    EXPECT_EQ(run.trajectory.time[i], static_cast<double>(i) * 0.1);
  }
  EXPECT_EQ(run.statistics.steps, 10);
  EXPECT_EQ(run.statistics.rhs_evaluations, 40);  // four stages, nothing for output
  EXPECT_EQ(run.t_end, 1.0);
  // RK4 global error on x' = -x with h = 0.1 is about h^4/120 ~ 1e-6 (Thm 3.22).
  EXPECT_NEAR(run.x_end[0], exact_exponential(1.0, -1.0), 5e-6);
}

TEST(Simulator, OutputTimesComeFromDenseOutputAndAreExact) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.stepper.rtol = 1e-10;
  s.stepper.atol = {1e-12};
  s.tf = 2.0;
  for (int k = 0; k <= 40; ++k) s.output_times.push_back(0.05 * k);
  const auto run = sim::Simulator(*model, s).run();
  ASSERT_EQ(run.trajectory.size(), s.output_times.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < run.trajectory.size(); ++i) {
    EXPECT_EQ(run.trajectory.time[i], s.output_times[i]);
    worst = std::max(worst, std::abs(run.trajectory.states[i][0] -
                                     exact_exponential(run.trajectory.time[i], -1.0)));
  }
  // The Dormand-Prince interpolant is of order 4 with error comparable to the step
  // error, which rtol 1e-10 keeps near 1e-10; the requested times do not coincide with
  // the step grid, so they really are interpolated.
  EXPECT_LT(worst, 1e-8);
}

TEST(Simulator, OutputTimesBetweenFixedStepsUseTheInterpolant) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode4";
  s.h = 0.01;
  s.output_times = {0.0, 0.005, 0.333, 0.5, 0.9999, 1.0};
  const auto run = sim::Simulator(*model, s).run();
  ASSERT_EQ(run.trajectory.size(), 6U);
  for (std::size_t i = 0; i < 6; ++i) {
    // Hermite dense output on h = 0.01: error O(h^3) ~ 1e-6 at most.
    EXPECT_NEAR(run.trajectory.states[i][0], exact_exponential(s.output_times[i], -1.0), 1e-6);
  }
}

TEST(Simulator, AdaptiveRunReportsRejectionsAndStopsExactlyAtTf) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.h = 1.0;  // far too large a first step for rtol 1e-9: rejected at least once
  s.stepper.rtol = 1e-9;
  s.stepper.atol = {1e-15};
  s.tf = 3.0;
  s.parameters = {{"lambda", -5.0}};
  const auto run = sim::Simulator(*model, s).run();
  EXPECT_GE(run.statistics.rejected_steps, 1);
  EXPECT_EQ(run.t_end, 3.0);
  EXPECT_EQ(run.trajectory.time.back(), 3.0);
  EXPECT_EQ(run.trajectory.size(), static_cast<std::size_t>(run.statistics.steps) + 1);
  for (std::size_t i = 1; i < run.trajectory.size(); ++i) {
    EXPECT_GT(run.trajectory.time[i], run.trajectory.time[i - 1]);
  }
  EXPECT_NEAR(run.x_end[0] / std::exp(-15.0), 1.0, 1e-7);  // rtol-controlled
}

TEST(Simulator, MaxStepBoundsEveryStep) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.stepper.max_step = 0.01;
  const auto run = sim::Simulator(*model, s).run();
  for (std::size_t i = 1; i < run.trajectory.size(); ++i) {
    EXPECT_LE(run.trajectory.time[i] - run.trajectory.time[i - 1], 0.01 * (1 + 1e-12));
  }
}

TEST(Simulator, RecordsModelOutputsWithTheInputOfTheirTime) {
  const sim::testing::ClockModel model;
  sim::SimulatorSettings s;
  s.method = "ode4";
  s.h = 0.25;
  s.record_outputs = true;
  s.events.enabled = false;
  const auto run = sim::Simulator(model, s).run();
  ASSERT_EQ(run.trajectory.outputs.size(), run.trajectory.size());
  EXPECT_DOUBLE_EQ(run.trajectory.outputs.back()[1], 2.0);
}

TEST(Simulator, RejectsInvalidSettings) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode4";
  EXPECT_THROW(sim::Simulator(*model, s), std::invalid_argument);  // fixed step needs h
  s.h = 0.1;
  s.output_times = {0.5, 0.2};
  EXPECT_THROW(sim::Simulator(*model, s), std::invalid_argument);  // not increasing
  s.output_times = {2.0};
  EXPECT_THROW(sim::Simulator(*model, s), std::invalid_argument);  // beyond tf
  s.output_times.clear();
  s.x0 = sim::Vector::Ones(2);
  EXPECT_THROW(sim::Simulator(*model, s), std::invalid_argument);  // wrong dimension
  s.x0 = sim::Vector();
  s.parameters = {{"mu", 1.0}};
  EXPECT_THROW(sim::Simulator(*model, s), std::invalid_argument);  // unknown parameter
  s.parameters.clear();
  s.stepper.max_step = 0.01;
  EXPECT_THROW(sim::Simulator(*model, s), std::invalid_argument);  // ignored by a fixed step
  s.method = "ode45";
  (void)sim::Simulator(*model, s);  // bounds an adaptive one
  for (const double bad : {-1.0, std::nan(""), 1e-300}) {
    s.stepper.max_step = bad;
    EXPECT_THROW(sim::Simulator(*model, s), std::invalid_argument) << bad;
  }
}

// A NaN parameter or initial state makes every error estimate NaN; the step control then
// shrinks h to an underflow. The error names the cause (a computed value, where load-time checks
// of the requirement file cannot see it) instead of blaming stiffness.
TEST(Simulator, NamesANonFiniteStartInsteadOfAStepUnderflow) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.parameters = {{"lambda", std::nan("")}};
  try {
    (void)sim::Simulator(*model, s).run();
    FAIL() << "a NaN parameter ran";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the right-hand side is not finite at t = 0 (x0 = [1], "
                                         "p: lambda = nan): f = [nan]"),
              std::string::npos)
        << e.what();
  }
  s.parameters.clear();
  s.x0 = sim::Vector::Constant(1, std::nan(""));
  try {
    (void)sim::Simulator(*model, s).run();
    FAIL() << "a NaN initial state ran";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the initial state is not finite at t = 0 (x0 = [nan])"),
              std::string::npos)
        << e.what();
  }
}

TEST(Simulator, RefusesAFixedStepLongerThanTheRun) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode1";
  s.tf = 1.0;
  s.h = 1.0;  // one step exactly: fine
  EXPECT_NO_THROW((void)sim::Simulator(*model, s));
  s.h = std::pow(10.0, 1e-4);  // {logspace: [1e-4, ...]}: values written for exponents
  try {
    (void)sim::Simulator(*model, s);
    ADD_FAILURE() << "h > tf - t0 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "simulator: h = 1.00023 is larger than the horizon tf - t0 = 1: not one step "
                 "of it fits in the run");
  }
  s.method = "ode45";  // an adaptive method takes h as its first try only
  EXPECT_NO_THROW((void)sim::Simulator(*model, s));
}

TEST(Simulator, WorksOnNanosecondTimeScales) {
  // Nothing in the step loop may assume |t| ~ 1: lambda = -1e9 over 10 ns.
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.tf = 1e-8;
  s.stepper.rtol = 1e-8;
  s.stepper.atol = {1e-14};
  s.parameters = {{"lambda", -1e9}};
  const auto run = sim::Simulator(*model, s).run();
  EXPECT_EQ(run.t_end, 1e-8);
  EXPECT_NEAR(run.x_end[0] / std::exp(-10.0), 1.0, 1e-6);
  EXPECT_GT(run.statistics.steps, 10);
}

// x' = u with u = 0 -> 10 at t = 0.5 and tf = 0.5: x(tf) is the integral up to tf, 0. The jump
// on tf itself used to be read from the right by the last step's stages (ode4 0.4167, radau2a
// 0.625, ode45 2.7e-6). Every stage of every step now reads u = 0, so x stays exactly 0 (the
// sum of zero increments): compared exactly. With tf = 1 the integral after the jump is 5 (the
// methods integrate a constant exactly; 1e-12 for the rounding of a few steps).
TEST(Simulator, AJumpOfTheInputOnTfIsNotIntegrated) {
  const sim::testing::ClockModel model;
  for (const std::string method : {"ode4", "ode1", "radau2a", "ode45"}) {
    for (const double tf : {0.5, 1.0}) {
      sim::SimulatorSettings s;
      s.method = method;
      s.h = 0.25;
      s.tf = tf;
      s.parameters = {{"a", 0.0}};
      s.events.enabled = false;
      s.input = sim::step_input(0.5, 0.0, 10.0);
      const auto run = sim::Simulator(model, s).run();
      if (tf == 0.5) {
        EXPECT_EQ(run.x_end[0], 0.0) << method;
      } else {
        EXPECT_NEAR(run.x_end[0], 5.0, 1e-12) << method;
      }
    }
  }
}

// Outputs that feed the input through jump with it: spring_mass_damper at rest, force 0 -> 10 N
// at t = 0.5, acceleration = (u - d v - k y) / m. At t = 0.5 the state is still 0 (u = 0
// before), so the recorded acceleration is 0 from the left and exactly u / m = 10 from the
// right: two samples at t = 0.5, compared exactly (y = v = 0 exactly, no rounding enters).
// Before, only the left one was recorded and max_abs(acceleration) was 0.44 with ode4.
TEST(Simulator, RecordsOutputsOnBothSidesOfAJumpOfTheInput) {
  const auto model = sim::make_model("spring_mass_damper");
  const auto& outputs = model->info().outputs;
  const auto acceleration = static_cast<std::size_t>(
      std::find(outputs.begin(), outputs.end(), "acceleration") - outputs.begin());
  for (const std::string method : {"ode4", "ode45"}) {
    for (const double tf : {0.5, 1.0}) {
      sim::SimulatorSettings s;
      s.method = method;
      s.h = 0.25;
      s.tf = tf;
      s.x0 = sim::Vector::Zero(2);
      s.record_outputs = true;
      s.input = sim::step_input(0.5, 0.0, 10.0);
      const auto run = sim::Simulator(*model, s).run();
      std::vector<double> at_jump;
      for (std::size_t i = 0; i < run.trajectory.size(); ++i) {
        if (run.trajectory.time[i] == 0.5) {
          at_jump.push_back(run.trajectory.outputs[i][static_cast<Eigen::Index>(acceleration)]);
        }
      }
      EXPECT_EQ(at_jump, (std::vector<double>{0.0, 10.0})) << method << " tf " << tf;
    }
  }
}
