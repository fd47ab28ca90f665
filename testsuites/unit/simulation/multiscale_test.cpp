// Multiscale time grid (Def 3.38, Alg 6): outputs on t0 + k T, inputs held over each
// sampling interval (zero-order hold, Remark 3.37), h = T / i.
#include <simverify/simulation/input_signal.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include "multiscale.hpp"
#include "simulator_test_models.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>

namespace sim = simverify::simulation;

namespace {

// x' = u: the clock model with rate a = 0 integrates its input; no events.
sim::SimulatorSettings integrator(const std::string& method, double t0, double tf, double T) {
  sim::SimulatorSettings s;
  s.method = method;
  s.t0 = t0;
  s.tf = tf;
  s.sample_time = T;
  s.parameters = {{"a", 0.0}};
  s.events.enabled = false;
  return s;
}

}  // namespace

TEST(Multiscale, OutputsLieExactlyOnTheSamplingGrid) {
  const sim::testing::ClockModel model;
  auto s = integrator("ode4", 0.3, 1.3, 0.1);
  s.h = 0.025;  // i = 4 inner steps
  s.input = sim::constant_input(1.0);
  const auto run = sim::Simulator(model, s).run();
  ASSERT_EQ(run.trajectory.size(), 11U);
  for (std::size_t k = 0; k < run.trajectory.size(); ++k) {
    EXPECT_EQ(run.trajectory.time[k], 0.3 + static_cast<double>(k) * 0.1);  // bitwise
  }
  EXPECT_EQ(run.statistics.steps, 40);
  EXPECT_NEAR(run.x_end[0], 1.0, 1e-14);
}

TEST(Multiscale, InputIsHeldOverEachSampleInterval) {
  // u jumps 0 -> 1 at t = 0.25; held on T = 0.1 it is seen only from t = 0.3, so
  // x(1) = 0.7 (0.75 without hold).
  const sim::testing::ClockModel model;
  auto s = integrator("ode45", 0.0, 1.0, 0.1);
  s.input = sim::step_input(0.25, 0.0, 1.0);
  EXPECT_NEAR(sim::Simulator(model, s).run().x_end[0], 0.7, 1e-12);
  s.sample_time = 0.0;
  s.stepper.rtol = 1e-10;
  s.stepper.atol = {1e-12};
  EXPECT_NEAR(sim::Simulator(model, s).run().x_end[0], 0.75, 1e-6);
}

TEST(Multiscale, HeldSineIntegratesToTheRiemannSum) {
  // x' = u(t_k) on [t_k, t_k + T): x(tf) = T sum_k sin(2 pi f t_k) exactly, for any method.
  const sim::testing::ClockModel model;
  for (const char* method : {"ode1", "ode4", "ode45"}) {
    auto s = integrator(method, 0.0, 2.0, 0.05);
    s.h = 0.01;
    s.input = sim::sine_input(1.0, 0.7, 0.0);
    double sum = 0.0;
    for (int k = 0; k < 40; ++k) sum += 0.05 * std::sin(2.0 * std::numbers::pi * 0.7 * 0.05 * k);
    const auto run = sim::Simulator(model, s).run();
    EXPECT_NEAR(run.x_end[0], sum, 1e-12) << method;
    EXPECT_EQ(run.trajectory.size(), 41U) << method;
  }
}

TEST(Multiscale, StepSizeMustDivideTheSampleTime) {
  const sim::testing::ClockModel model;
  auto s = integrator("ode4", 0.0, 1.0, 0.1);
  s.h = 0.03;
  EXPECT_THROW(sim::Simulator(model, s), std::invalid_argument);
  s.h = 0.0;  // h = T by default (lecture Sec 3.5)
  EXPECT_EQ(sim::Simulator(model, s).run().statistics.steps, 10);
  EXPECT_EQ(sim::detail::multiscale_substeps(0.1, 0.1 / 7.0), 7);
  EXPECT_THROW((void)sim::detail::multiscale_substeps(0.1, 0.0), std::invalid_argument);
}

// A T (or fixed h) at or below the run's time resolution, 64 eps max(|t0|, |tf|), cannot advance
// t. Before it was refused, sample_time 1e-300 made (tf - t0) / T = 1e300 intervals overflow
// the count, and ode45 "passed" at once with x_end = x0; a fixed h of 1e-300 never ended.
TEST(Multiscale, StepsBelowTheTimeResolutionAreRefused) {
  const sim::testing::ClockModel model;
  const double resolution = 64.0 * std::numeric_limits<double>::epsilon() * 1e6;  // tf = 1e6
  for (const char* method : {"ode45", "ode4"}) {
    auto s = integrator(method, 0.0, 1e6, resolution);
    try {
      (void)sim::Simulator(model, s);
      ADD_FAILURE() << method << ": sample_time at the resolution was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("sample_time = 1.42109e-08 is below the time "
                                           "resolution of the run"),
                std::string::npos)
          << e.what();
    }
    s.sample_time = 1e-300;
    EXPECT_THROW(sim::Simulator(model, s), std::invalid_argument) << method;
    s.sample_time = 2.0 * resolution;  // resolved: accepted (not run: 3.5e13 intervals)
    EXPECT_NO_THROW(sim::Simulator(model, s)) << method;
  }
  auto s = integrator("ode4", 0.0, 1.0, 0.0);
  s.h = 1e-300;
  EXPECT_THROW(sim::Simulator(model, s), std::invalid_argument);
  s.method = "ode45";  // an adaptive method's h is only its first step's proposal
  EXPECT_NO_THROW(sim::Simulator(model, s));
}

TEST(Multiscale, LastIntervalIsShortenedToTf) {
  EXPECT_EQ(sim::detail::sampling_intervals(0.0, 1.0, 0.3), 4);
  EXPECT_EQ(sim::detail::sampling_interval_end(0.0, 1.0, 0.3, 3), 1.0);
  EXPECT_EQ(sim::detail::sampling_intervals(0.0, 0.3, 0.1), 3);  // 0.3 / 0.1 = 2.9999...
}

TEST(Multiscale, ConvergesToTheContinuousSolutionWithoutInput) {
  // Without an input the hold changes nothing: the cocycle property (Remark 3.9) makes
  // restarting at each t_k exact up to the method's error.
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode4";
  s.h = 0.01;
  s.sample_time = 0.1;
  s.tf = 1.0;
  const auto run = sim::Simulator(*model, s).run();
  EXPECT_NEAR(run.x_end[0], std::exp(-1.0), 1e-9);
}

TEST(Multiscale, EventsAreLocatedInsideSampleIntervals) {
  // x = t; g = (x - 0.5)^2 - 0.15^2 crosses at 0.35 (terminal): the run stops there, between
  // the sampling instants 0.3 and 0.4, and the stop point closes the trajectory.
  const sim::testing::ClockModel model(sim::EventDirection::either, /*terminal=*/true);
  sim::SimulatorSettings s;
  s.method = "ode4";
  s.h = 0.05;
  s.sample_time = 0.1;
  s.parameters = {{"r", 0.15}};
  const auto run = sim::Simulator(model, s).run();
  ASSERT_EQ(run.events.size(), 1U);
  EXPECT_NEAR(run.events[0].time, 0.35, 1e-12);
  EXPECT_EQ(run.status, sim::RunStatus::terminated_by_event);
  ASSERT_EQ(run.trajectory.size(), 5U);  // 0, 0.1, 0.2, 0.3 and the stop at 0.35
  EXPECT_EQ(run.trajectory.time.back(), run.t_end);
  EXPECT_NEAR(run.x_end[0], 0.35, 1e-12);
}
