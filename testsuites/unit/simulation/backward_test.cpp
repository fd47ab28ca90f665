// ARGESIM C7 task C by simulating backwards: from the target (phi = -pi/2, v = 0 on the short
// pendulum) in reversed time, through the release at the pin, to the target event phi = pi/6.
#include <simverify/simulation/analysis/backward.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <numbers>

namespace sim = simverify::simulation;
namespace ana = simverify::simulation::analysis;

TEST(Backward, ConstrainedPendulumTaskC) {
  const auto pendulum = sim::make_model("constrained_pendulum", "nonlinear");
  const ana::TimeReversedModel reversed(*pendulum);
  const ana::TargetEventModel model(reversed, 0, std::numbers::pi / 6, sim::EventDirection::rising,
                                    true);
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.stepper.rtol = 1e-11;
  s.stepper.atol = {1e-13};
  s.tf = 5.0;
  s.x0 = sim::Vector{{-std::numbers::pi / 2, 0.0}};
  const auto run = sim::Simulator(model, s).run();
  ASSERT_EQ(run.events.size(), 2u);
  EXPECT_EQ(run.events[0].name, "release");
  EXPECT_EQ(run.events[1].index, model.target_index());
  // scipy DOP853 (rtol 1e-13, atol 1e-14) on the reversed equations, and confirmed forward:
  // starting at phi = pi/6 with this v the pendulum hits the pin and stops at -pi/2.
  //   release at s = 0.28871134036424506, target at s = 0.6012512435114131,
  //   v(target) = -2.18469928827742 m/s.
  EXPECT_NEAR(run.events[0].time, 0.28871134036424506, 1e-8);
  EXPECT_NEAR(run.events[1].time, 0.6012512435114131, 1e-8);
  EXPECT_NEAR(run.events[1].state(1), -2.18469928827742, 1e-8);
}

TEST(Backward, ReversingTwiceRecoversTheStart) {
  // Integrate the exponential forward, then the reversed model back: x returns to x0.
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.stepper.rtol = 1e-12;
  s.stepper.atol = {1e-14};
  s.tf = 2.0;
  const auto forward = sim::Simulator(*model, s).run();
  const ana::TimeReversedModel reversed(*model, 2.0);
  s.x0 = forward.x_end;
  const auto back = sim::Simulator(reversed, s).run();
  EXPECT_NEAR(back.x_end(0), 1.0, 1e-10);
}
