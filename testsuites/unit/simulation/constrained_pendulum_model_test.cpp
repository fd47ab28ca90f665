// ARGESIM C7 constrained pendulum: modes, events, the linear closed form, event times.
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/models/constrained_pendulum.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace sim = simverify::simulation;
namespace models = simverify::simulation::models;
using models::ConstrainedPendulum;

namespace {

constexpr double kPin = -std::numbers::pi / 12.0;

// Event times of the C7 defaults from x0 = (pi/6, 0) on [0, 10], computed with
// scipy.integrate.solve_ivp(DOP853, rtol=1e-13, atol=1e-15) and terminal events on
// phi - phi_pin (direction -1 while long, +1 while short), restarting with v continuous:
// 8 events each; the first six:
const std::vector<double> kLinearEvents{0.6920233400876975, 1.1205447294232498, 2.5408604577979856,
                                        2.931799149183466,  4.465755482717272,  4.790786111374355};
const std::vector<double> kNonlinearEvents{0.7034594857621727, 1.1517797076382574,
                                           2.590417987472187,  2.9905290566081444,
                                           4.542741390166258,  4.867487793864616};
// and x(10) of the linear variant: (0.06621008122108303, -0.567765285703384).

// Root of phi(tau) - pin for the closed form of one mode, by bisection on [a, b].
double crossing(double phi0, double v0, double length, double a, double b) {
  const auto g = [&](double tau) {
    return models::linear_pendulum_solution(tau, phi0, v0, length, 0.2 / 1.02, 9.81).phi - kPin;
  };
  const bool rising_at_a = g(a) < 0.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (a + b);
    ((g(mid) < 0.0) == rising_at_a ? a : b) = mid;
  }
  return 0.5 * (a + b);
}

}  // namespace

TEST(ConstrainedPendulum, InitialModeFromSideOfPinAndVelocity) {
  const auto model = sim::make_model("constrained_pendulum");
  const auto p = model->default_parameters();
  const sim::Context context{p, {}, 0};
  EXPECT_EQ(model->initial_mode(0.0, sim::Vector{{0.5, 0.0}}, context), models::kPendulumLong);
  EXPECT_EQ(model->initial_mode(0.0, sim::Vector{{-0.5, 0.0}}, context), models::kPendulumShort);
  EXPECT_EQ(model->initial_mode(0.0, sim::Vector{{kPin, -0.1}}, context), models::kPendulumShort);
  EXPECT_EQ(model->initial_mode(0.0, sim::Vector{{kPin, 0.1}}, context), models::kPendulumLong);
  EXPECT_EQ(model->initial_mode(0.0, sim::Vector{{kPin, 0.0}}, context), models::kPendulumLong);
}

TEST(ConstrainedPendulum, EventsSwitchLengthAndKeepVelocity) {
  const auto model = sim::make_model("constrained_pendulum");
  const auto& events = model->info().events;
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[ConstrainedPendulum::kHit].name, "hit");
  EXPECT_EQ(events[ConstrainedPendulum::kHit].direction, sim::EventDirection::falling);
  EXPECT_EQ(events[ConstrainedPendulum::kRelease].name, "release");
  EXPECT_EQ(events[ConstrainedPendulum::kRelease].direction, sim::EventDirection::rising);
  const auto p = model->default_parameters();
  sim::Context context{p, {}, models::kPendulumLong};
  EXPECT_DOUBLE_EQ(model->event_value(0, 0.0, sim::Vector{{0.1, 0.0}}, context), 0.1 - kPin);

  sim::Vector x{{kPin, -1.5}};
  sim::Vector before;
  model->rhs(0.0, x, context, before);
  EXPECT_EQ(model->on_event(ConstrainedPendulum::kHit, 0.0, x, context), sim::EventAction::resume);
  EXPECT_EQ(context.mode, models::kPendulumShort);
  EXPECT_EQ(x[1], -1.5);  // v continuous
  sim::Vector after;
  model->rhs(0.0, x, context, after);
  // phi' = v / l_act jumps by l / (l - l_p) = 1 / 0.3; v' is unchanged.
  EXPECT_NEAR(after[0] / before[0], 1.0 / 0.3, 1e-12);
  EXPECT_EQ(after[1], before[1]);
  sim::Vector y;
  model->output(0.0, x, context, y);
  EXPECT_NEAR(y[3], 0.3, 1e-15);
  model->on_event(ConstrainedPendulum::kRelease, 0.0, x, context);
  EXPECT_EQ(context.mode, models::kPendulumLong);
}

TEST(ConstrainedPendulum, LinearVariantUsesPhiNonlinearSinPhi) {
  const auto linear = sim::make_model("constrained_pendulum", "linear");
  const auto nonlinear = sim::make_model("constrained_pendulum", "nonlinear");
  const auto p = linear->default_parameters();
  const sim::Vector x{{0.4, 0.2}};
  sim::Vector f_linear;
  sim::Vector f_nonlinear;
  linear->rhs(0.0, x, {p, {}, 0}, f_linear);
  nonlinear->rhs(0.0, x, {p, {}, 0}, f_nonlinear);
  EXPECT_DOUBLE_EQ(f_linear[1], -9.81 * 0.4 - 0.2 / 1.02 * 0.2);
  EXPECT_DOUBLE_EQ(f_nonlinear[1], -9.81 * std::sin(0.4) - 0.2 / 1.02 * 0.2);
  EXPECT_TRUE(linear->has_exact_solution());
  EXPECT_FALSE(nonlinear->has_exact_solution());
}

// The hybrid exact solution of the linear variant, checked against event times found
// independently: bisection on the public one-mode closed form, chained by hand, and the
// scipy reference. Bisection to 200 halvings is exact to round-off; scipy's events are
// accurate to ~1e-12, so 1e-9 is generous for both.
TEST(ConstrainedPendulum, LinearEventTimesFromClosedForm) {
  // First hit: long mode from (pi/6, 0); the pendulum reaches the pin within 0.5..1 s.
  const double hit = crossing(std::numbers::pi / 6.0, 0.0, 1.0, 0.5, 1.0);
  EXPECT_NEAR(hit, kLinearEvents[0], 1e-9);
  const auto at_hit =
      models::linear_pendulum_solution(hit, std::numbers::pi / 6.0, 0.0, 1.0, 0.2 / 1.02, 9.81);
  // Release: short mode from (pin, v_hit); swings out and back within 0.2..0.6 s.
  const double release = hit + crossing(kPin, at_hit.v, 0.3, 0.2, 0.6);
  EXPECT_NEAR(release, kLinearEvents[1], 1e-9);

  const auto model = sim::make_model("constrained_pendulum", "linear");
  const auto p = model->default_parameters();
  const sim::Vector x0 = model->info().default_x0;
  const sim::Context context{p, {}, 0};
  // Just before and after each event the exact solution is on the expected side.
  for (std::size_t k = 0; k < kLinearEvents.size(); ++k) {
    sim::Vector before;
    sim::Vector after;
    model->exact_solution(kLinearEvents[k] - 1e-7, 0.0, x0, context, before);
    model->exact_solution(kLinearEvents[k] + 1e-7, 0.0, x0, context, after);
    const bool hit_event = k % 2 == 0;
    EXPECT_EQ(before[0] > kPin, hit_event) << "event " << k;
    EXPECT_EQ(after[0] > kPin, !hit_event) << "event " << k;
  }
  sim::Vector end;
  model->exact_solution(10.0, 0.0, x0, context, end);
  EXPECT_NEAR(end[0], 0.06621008122108303, 1e-9);
  EXPECT_NEAR(end[1], -0.567765285703384, 1e-9);
}

// Through the Simulator (events located on dense output): the nonlinear variant's event
// times against the scipy reference. ode45 at rtol 1e-10 keeps the state error near 1e-9,
// which shifts a crossing by error / |phi'| ~ 1e-9; 1e-6 leaves room for the event
// tolerance and error growth over five swings.
TEST(ConstrainedPendulum, SimulatedNonlinearEventTimesMatchReference) {
  const auto model = sim::make_model("constrained_pendulum", "nonlinear");
  sim::SimulatorSettings settings;
  settings.method = "ode45";
  settings.tf = 5.0;
  settings.stepper.rtol = 1e-10;
  settings.stepper.atol = {1e-12};
  settings.record_trajectory = false;
  const auto result = sim::Simulator(*model, settings).run();
  ASSERT_EQ(result.events.size(), kNonlinearEvents.size());
  for (std::size_t k = 0; k < kNonlinearEvents.size(); ++k) {
    EXPECT_NEAR(result.events[k].time, kNonlinearEvents[k], 1e-6) << "event " << k;
    EXPECT_EQ(result.events[k].name, k % 2 == 0 ? "hit" : "release");
  }
  EXPECT_EQ(result.mode_end, models::kPendulumLong);
}
