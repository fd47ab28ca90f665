// Events (ARGESIM C7): detection on the dense output, Illinois location, actions,
// restart, terminal events and the Zeno guard.
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include "simulator_test_models.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace sim = simverify::simulation;

namespace {

// ARGESIM C7 defaults (the model's parameter table): m, l, l_p, d, g, phi_pin.
constexpr double kMass = 1.02;
constexpr double kLength = 1.0;
constexpr double kPinDistance = 0.7;
constexpr double kDamping = 0.2;
constexpr double kGravity = 9.81;
const double kPinAngle = -std::numbers::pi / 12.0;

// The linear C7 pendulum inside one mode, written here independently of the model:
// phi'' + r phi' + (g / L) phi = 0 with r = d / m and v = L phi'.
struct Linear {
  double A, B, r, w, L;
  Linear(double phi0, double v0, double length)
      : A(phi0),
        B(0.0),
        r(kDamping / kMass),
        w(std::sqrt(kGravity / length - 0.25 * r * r)),
        L(length) {
    B = (v0 / length + 0.5 * r * phi0) / w;
  }
  [[nodiscard]] double phi(double tau) const {
    return std::exp(-0.5 * r * tau) * (A * std::cos(w * tau) + B * std::sin(w * tau));
  }
  [[nodiscard]] double v(double tau) const {
    const double dphi = std::exp(-0.5 * r * tau) * ((-0.5 * r * A + B * w) * std::cos(w * tau) +
                                                    (-0.5 * r * B - A * w) * std::sin(w * tau));
    return L * dphi;
  }
};

// Event times of the linear C7 pendulum from (pi/6, 0) on [0, tf]: scan each mode's closed
// form for the pin crossing, then bisect to round-off (independent of the simulator's
// Illinois locator and of every solver).
std::vector<double> linear_c7_event_times(double tf) {
  std::vector<double> times;
  double t = 0.0;
  double phi0 = std::numbers::pi / 6.0;
  double v0 = 0.0;
  bool long_mode = true;
  while (t < tf) {
    const Linear s(phi0, v0, long_mode ? kLength : kLength - kPinDistance);
    const double scan = 2.0 * std::numbers::pi / s.w / 400.0;
    auto past = [&](double tau) {
      return long_mode ? s.phi(tau) < kPinAngle : s.phi(tau) > kPinAngle;
    };
    double lo = 0.0;
    double hi = scan;
    while (!past(hi) && t + hi < tf) {
      lo = hi;
      hi += scan;
    }
    if (!past(hi)) break;
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      (past(mid) ? hi : lo) = mid;
    }
    t += hi;
    if (t > tf) break;
    times.push_back(t);
    phi0 = kPinAngle;
    v0 = s.v(hi);  // v is continuous at the pin (C7)
    long_mode = !long_mode;
  }
  return times;
}

sim::SimulatorResult run_c7(const std::string& variant, const std::string& method, double rtol,
                            double atol, double h = 0.0, double tf = 10.0) {
  const auto model = sim::make_model("constrained_pendulum", variant);
  sim::SimulatorSettings s;
  s.method = method;
  s.h = h;
  s.tf = tf;
  s.stepper.rtol = rtol;
  s.stepper.atol = {atol};
  return sim::Simulator(*model, s).run();
}

}  // namespace

TEST(Events, LinearC7EventTimesMatchTheClosedForm) {
  const auto reference = linear_c7_event_times(10.0);
  ASSERT_GE(reference.size(), 6U);  // several hit/release pairs in 10 s
  const auto run = run_c7("linear", "ode45", 1e-12, 1e-14);
  ASSERT_EQ(run.events.size(), reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) {
    // rtol 1e-12 keeps the state error near 1e-11; |phi'| at the pin is O(1), so the
    // crossing moves by about that much; the locator adds at most 1e-12.
    EXPECT_NEAR(run.events[i].time, reference[i], 1e-9) << "event " << i;
    EXPECT_EQ(run.events[i].name, i % 2 == 0 ? "hit" : "release");
    EXPECT_NEAR(run.events[i].state[0], kPinAngle, 1e-9);
    EXPECT_EQ(run.events[i].mode_after, i % 2 == 0 ? 1 : 0);
  }
  EXPECT_EQ(run.status, sim::RunStatus::completed);
}

TEST(Events, NonlinearC7AgreesWithAnIndependentSolver) {
  // ode45 at rtol 1e-10 against ode8 on a fixed 1e-3 grid: a different method, step
  // control and dense output (Hermite) whose own error (~h^8 in the state, ~h^4 for the
  // interpolant, i.e. about 1e-12) is far below the 1e-10 under test.
  const auto adaptive = run_c7("nonlinear", "ode45", 1e-10, 1e-12);
  const auto fixed = run_c7("nonlinear", "ode8", 0.0, 0.0, 1e-3);
  ASSERT_EQ(adaptive.events.size(), fixed.events.size());
  ASSERT_GE(adaptive.events.size(), 6U);
  for (std::size_t i = 0; i < adaptive.events.size(); ++i) {
    EXPECT_NEAR(adaptive.events[i].time, fixed.events[i].time, 1e-8) << "event " << i;
  }
  EXPECT_NEAR(adaptive.x_end[0], fixed.x_end[0], 1e-8);
  EXPECT_NEAR(adaptive.x_end[1], fixed.x_end[1], 1e-8);
}

TEST(Events, TwoCrossingsInsideOneStepAreBothFound) {
  // x = t; g = (x - 0.5)^2 - 0.04 crosses at 0.3 and 0.7, both inside the single ode4
  // step [0, 1]: the step's end values alone show no sign change.
  const sim::testing::ClockModel model;
  sim::SimulatorSettings s;
  s.method = "ode4";
  s.h = 1.0;
  const auto run = sim::Simulator(model, s).run();
  ASSERT_EQ(run.events.size(), 2U);
  EXPECT_NEAR(run.events[0].time, 0.3, 1e-12);
  EXPECT_NEAR(run.events[1].time, 0.7, 1e-12);

  s.events.interior_samples = 0;  // ends only: both crossings are invisible
  EXPECT_TRUE(sim::Simulator(model, s).run().events.empty());
}

TEST(Events, DirectionFiltersCrossings) {
  const sim::testing::ClockModel rising(sim::EventDirection::rising);
  sim::SimulatorSettings s;
  s.method = "ode45";
  const auto run = sim::Simulator(rising, s).run();
  ASSERT_EQ(run.events.size(), 1U);
  EXPECT_NEAR(run.events[0].time, 0.7, 1e-12);

  const sim::testing::ClockModel falling(sim::EventDirection::falling);
  const auto run2 = sim::Simulator(falling, s).run();
  ASSERT_EQ(run2.events.size(), 1U);
  EXPECT_NEAR(run2.events[0].time, 0.3, 1e-12);
}

TEST(Events, TerminalEventStopsTheRunAtTheCrossing) {
  const sim::testing::ClockModel model(sim::EventDirection::either, /*terminal=*/true);
  sim::SimulatorSettings s;
  s.method = "ode45";
  const auto run = sim::Simulator(model, s).run();
  ASSERT_EQ(run.events.size(), 1U);
  EXPECT_EQ(run.status, sim::RunStatus::terminated_by_event);
  EXPECT_TRUE(run.terminated_by_event);
  EXPECT_NEAR(run.t_end, 0.3, 1e-12);
  EXPECT_NEAR(run.x_end[0], 0.3, 1e-12);
  EXPECT_EQ(run.trajectory.time.back(), run.t_end);
}

TEST(Events, ParameterChangeActsOnTheRunsOwnCopy) {
  // a := 2 a at x = 0.3 (t = 0.3): then x = 0.3 + 2 (t - 0.3) reaches 0.7 at t = 0.5, where
  // a := 4 a; x(1) = 0.7 + 4 * 0.5 = 2.7.
  const sim::testing::ClockModel model(sim::EventDirection::either, false, 2.0);
  sim::SimulatorSettings s;
  s.method = "ode45";
  const sim::Simulator simulator(model, s);
  const auto run = simulator.run();
  ASSERT_EQ(run.events.size(), 2U);
  EXPECT_NEAR(run.events[1].time, 0.5, 1e-12);
  EXPECT_NEAR(run.x_end[0], 2.7, 1e-11);
  EXPECT_EQ(run.mode_end, 2);
  EXPECT_EQ(simulator.parameters()[0], 1.0);  // untouched: the next run starts afresh
  EXPECT_NEAR(simulator.run().x_end[0], 2.7, 1e-11);
}

TEST(Events, DisabledEventsAreIgnored) {
  const sim::testing::ClockModel model(sim::EventDirection::either, true);
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.events.enabled = false;
  const auto run = sim::Simulator(model, s).run();
  EXPECT_TRUE(run.events.empty());
  EXPECT_EQ(run.t_end, 1.0);
}

TEST(Events, ZenoGuardStopsTheBouncingBall) {
  // Dropped from 1 m with e = 0.8: bounces at t1 = sqrt(2/g), then every 2 e^k v1 / g, so
  // they accumulate at t* = t1 (1 + e) / (1 - e) = 9 t1 ~ 4.064 s.
  const auto model = sim::make_model("bouncing_ball", "event");
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.stepper.rtol = 1e-10;
  s.stepper.atol = {1e-12};
  s.tf = 10.0;
  const auto run = sim::Simulator(*model, s).run();
  EXPECT_EQ(run.status, sim::RunStatus::zeno);
  EXPECT_FALSE(run.message.empty());
  const double t1 = std::sqrt(2.0 / 9.81);
  const double zeno_time = t1 * 1.8 / 0.2;
  EXPECT_GE(run.events.size(), 20U);
  EXPECT_NEAR(run.t_end, zeno_time, 1e-4);
  EXPECT_NEAR(run.events[0].time, t1, 1e-9);
  EXPECT_NEAR(run.events[1].time, t1 + 2.0 * 0.8 * std::sqrt(2.0 * 9.81) / 9.81, 1e-8);
}

TEST(Events, OutputTimesBeforeAnEventLeaveTheEventStateIntact) {
  // Regression: output times inside the step that contains a crossing are interpolated
  // first; the located event state must not be overwritten by them.
  const sim::testing::ClockModel model(sim::EventDirection::falling, false, 2.0);
  sim::SimulatorSettings s;
  s.method = "ode4";
  s.h = 1.0;
  s.output_times = {0.1, 0.2, 0.25, 0.9};
  const auto run = sim::Simulator(model, s).run();
  ASSERT_EQ(run.events.size(), 1U);
  EXPECT_NEAR(run.events[0].state[0], 0.3, 1e-12);
  ASSERT_EQ(run.trajectory.size(), 4U);
  EXPECT_NEAR(run.trajectory.states[2][0], 0.25, 1e-12);
  EXPECT_NEAR(run.trajectory.states[3][0], 0.3 + 2.0 * 0.6, 1e-12);  // a doubled at 0.3
  EXPECT_NEAR(run.x_end[0], 0.3 + 2.0 * 0.7, 1e-12);
}

namespace {

// x' = 1 with two events on the same surface x = 0.5 (one rising, one either).
class TwinEvents final : public sim::Model {
 public:
  TwinEvents() {
    info_.name = "twin";
    info_.states = {"x"};
    info_.outputs = {"x"};
    info_.events = {{"first", sim::EventDirection::rising, false},
                    {"second", sim::EventDirection::either, false}};
    info_.default_x0 = sim::Vector::Zero(1);
  }
  [[nodiscard]] const sim::ModelInfo& info() const override { return info_; }
  void rhs(double, const sim::Vector&, const sim::Context&, sim::Vector& dxdt) const override {
    dxdt = sim::Vector::Ones(1);
  }
  double event_value(std::size_t index, double, const sim::Vector& x,
                     const sim::Context&) const override {
    // The second surface sits 1e-14 later: within the location tolerance of the first.
    return x[0] - 0.5 - (index == 1 ? 1e-14 : 0.0);
  }
  sim::EventAction on_event(std::size_t, double, sim::Vector&, sim::Context& c) const override {
    c.mode = 10 * c.mode + 1;
    return sim::EventAction::resume;
  }

 private:
  sim::ModelInfo info_;
};

}  // namespace

TEST(Events, SimultaneousEventsFireTogetherInIndexOrder) {
  const TwinEvents model;
  sim::SimulatorSettings s;
  s.method = "ode45";
  const auto run = sim::Simulator(model, s).run();
  ASSERT_EQ(run.events.size(), 2U);  // not re-detected after the restart
  EXPECT_EQ(run.events[0].name, "first");
  EXPECT_EQ(run.events[1].name, "second");
  EXPECT_EQ(run.events[0].time, run.events[1].time);
  EXPECT_NEAR(run.events[0].time, 0.5, 1e-12);
  EXPECT_EQ(run.mode_end, 11);  // both actions ran, once each
}

namespace {

// x' = -x, x(0) = 1, with M surfaces g_i = x - c_i, c_i = 0.5 - 0.002 i: crossings at
// t_i = ln(1 / c_i), several inside one step. event_values (all events at one point, as an
// FMU gives its indicators) is overridden and counted.
class ManySurfaces final : public sim::Model {
 public:
  static constexpr std::size_t kCount = 40;
  ManySurfaces() {
    info_.name = "many";
    info_.states = {"x"};
    info_.outputs = {"x"};
    for (std::size_t i = 0; i < kCount; ++i) {
      info_.events.push_back({std::to_string(i), sim::EventDirection::falling, false});
    }
    info_.default_x0 = sim::Vector::Ones(1);
  }
  [[nodiscard]] const sim::ModelInfo& info() const override { return info_; }
  void rhs(double, const sim::Vector& x, const sim::Context&, sim::Vector& dxdt) const override {
    dxdt = -x;
  }
  static double level(std::size_t i) { return 0.5 - 0.002 * static_cast<double>(i); }
  double event_value(std::size_t index, double, const sim::Vector& x,
                     const sim::Context&) const override {
    return x[0] - level(index);
  }
  void event_values(double t, const sim::Vector& x, const sim::Context& c,
                    std::span<double> g) const override {
    ++batches;
    for (std::size_t i = 0; i < g.size(); ++i) g[i] = event_value(i, t, x, c);
  }
  sim::EventAction on_event(std::size_t, double, sim::Vector&, sim::Context&) const override {
    return sim::EventAction::resume;
  }
  mutable long batches = 0;

 private:
  sim::ModelInfo info_;
};

}  // namespace

// Many events crossing in one step: each fires once, in time order, at its closed-form time;
// the locator samples all of them per point through event_values.
TEST(Events, ManyEventsInOneStepFireOnceEachAtTheirTimes) {
  const ManySurfaces model;
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.tf = 1.0;
  s.stepper.rtol = 1e-10;
  s.stepper.atol = {1e-12};
  const auto run = sim::Simulator(model, s).run();
  ASSERT_EQ(run.events.size(), ManySurfaces::kCount);
  EXPECT_GT(model.batches, 0);
  for (std::size_t i = 0; i < run.events.size(); ++i) {
    EXPECT_EQ(run.events[i].index, i);
    // Dense output of ode45 at rtol 1e-10: the located times within 1e-8 of ln(1 / c_i).
    EXPECT_NEAR(run.events[i].time, std::log(1.0 / ManySurfaces::level(i)), 1e-8) << i;
  }
}

namespace {

// A relay on its own state, x' = -1 where x >= 0, +1 below, x(0) = 1: x = 1 - t reaches the
// surface at t = 1 and slides there (x = 0 after; Filippov). No action changes the state.
class Relay final : public sim::Model {
 public:
  Relay() {
    info_.name = "relay";
    info_.states = {"x"};
    info_.outputs = {"x"};
    info_.events = {{"sw", sim::EventDirection::either, false}};
    info_.default_x0 = sim::Vector::Ones(1);
  }
  [[nodiscard]] const sim::ModelInfo& info() const override { return info_; }
  void rhs(double, const sim::Vector& x, const sim::Context&, sim::Vector& dxdt) const override {
    dxdt.resize(1);
    dxdt[0] = x[0] >= 0.0 ? -1.0 : 1.0;
  }
  double event_value(std::size_t, double, const sim::Vector& x,
                     const sim::Context&) const override {
    return x[0];
  }
  sim::EventAction on_event(std::size_t, double, sim::Vector&, sim::Context&) const override {
    return sim::EventAction::resume;
  }

 private:
  sim::ModelInfo info_;
};

}  // namespace

// ode15s chattered through the sliding mode with an event about every 1e-6 s (1.2 million
// events, outside the Zeno window); every method now stops at the 20th sliding event, just
// after the closed-form arrival t = 1, with a diagnosis naming the event.
TEST(Events, ChatteringInASlidingModeIsDiagnosed) {
  const Relay model;
  for (const char* method : {"ode45", "ode23", "ode15s"}) {
    sim::SimulatorSettings s;
    s.method = method;
    s.tf = 3.0;
    try {
      (void)sim::Simulator(model, s).run();
      ADD_FAILURE() << method << ": no diagnosis";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("chattering: event 'sw' fired 20 times in a row up to t = 1"),
                std::string::npos)
          << method << ": " << what;
      EXPECT_NE(what.find("hysteresis"), std::string::npos) << what;
    }
  }
}
