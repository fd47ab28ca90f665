// Time events and step events (model.hpp, the hybrid hooks an FMU's model exchange needs):
// the simulator ends steps exactly on scheduled events, asks the model after every accepted
// step, and stops when the model says so. Each model here has a closed-form answer.
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace sim = simverify::simulation;

namespace {

// x' = level, where the level (the run's mode) rises by one at every multiple of `period`:
// x(t) = period * (1 + 2 + ... + (k-1)) + k (t - k period) for k = floor(t / period).
// The integrand is piecewise constant, so every Runge-Kutta method integrates it exactly
// as long as no step straddles a jump: the test of steps ending on the time events.
class Stair final : public sim::Model {
 public:
  explicit Stair(int stop_after = 0) : stop_after_(stop_after) {
    info_.name = "stair";
    info_.states = {"x"};
    info_.parameters = {{"period", 0.3, "s", "time between steps"}};
    info_.default_x0 = sim::Vector::Zero(1);
  }
  [[nodiscard]] const sim::ModelInfo& info() const override { return info_; }
  void rhs(double /*t*/, const sim::Vector& /*x*/, const sim::Context& c,
           sim::Vector& dxdt) const override {
    dxdt.resize(1);
    dxdt[0] = c.mode;
  }
  [[nodiscard]] double next_time_event(double /*t*/, const sim::Context& c) const override {
    return (c.mode + 1) * c.p[0];
  }
  sim::EventAction on_time_event(double /*t*/, sim::Vector& /*x*/, sim::Context& c) const override {
    ++c.mode;
    return stop_after_ > 0 && c.mode >= stop_after_ ? sim::EventAction::terminate
                                                    : sim::EventAction::resume;
  }

  static double exact(double t, double period) {
    const double k = std::floor(t / period);
    return period * k * (k - 1.0) / 2.0 + k * (t - k * period);
  }

 private:
  sim::ModelInfo info_;
  int stop_after_;
};

// x' = 1 with a step event whenever an accepted step ends at x >= 1, which subtracts 1: the
// state stays t - (number of resets) exactly, whatever the steps.
class Sawtooth final : public sim::Model {
 public:
  explicit Sawtooth(double terminate_at = std::numeric_limits<double>::infinity())
      : terminate_at_(terminate_at) {
    info_.name = "sawtooth";
    info_.states = {"x"};
    info_.default_x0 = sim::Vector::Zero(1);
  }
  [[nodiscard]] const sim::ModelInfo& info() const override { return info_; }
  void rhs(double /*t*/, const sim::Vector& /*x*/, const sim::Context& /*c*/,
           sim::Vector& dxdt) const override {
    dxdt = sim::Vector::Ones(1);
  }
  [[nodiscard]] sim::StepRequest after_step(double t, const sim::Vector& x,
                                            const sim::Context& /*c*/) const override {
    if (t >= terminate_at_) return sim::StepRequest::terminate;
    return x[0] >= 1.0 ? sim::StepRequest::event : sim::StepRequest::none;
  }
  sim::EventAction on_step_event(double /*t*/, sim::Vector& x, sim::Context& c) const override {
    x[0] -= 1.0;
    ++c.mode;
    return sim::EventAction::resume;
  }

 private:
  sim::ModelInfo info_;
  double terminate_at_;
};

// A model whose next time event never advances: the Zeno guard must stop it.
class StuckClock final : public sim::Model {
 public:
  StuckClock() {
    info_.name = "stuck";
    info_.states = {"x"};
    info_.default_x0 = sim::Vector::Zero(1);
  }
  [[nodiscard]] const sim::ModelInfo& info() const override { return info_; }
  void rhs(double, const sim::Vector&, const sim::Context&, sim::Vector& dxdt) const override {
    dxdt = sim::Vector::Ones(1);
  }
  [[nodiscard]] double next_time_event(double t, const sim::Context&) const override {
    return t >= 0.5 ? t : 0.5;
  }

 private:
  sim::ModelInfo info_;
};

sim::SimulatorResult run_discrete(const sim::Model& model, const std::string& method, double tf,
                                  double h = 0.0) {
  sim::SimulatorSettings s;
  s.method = method;
  s.tf = tf;
  s.h = h;
  s.stepper.rtol = 1e-6;
  return sim::Simulator(model, s).run();
}

}  // namespace

TEST(TimeEvents, StepsEndOnEveryScheduledEvent) {
  const Stair stair;
  // 0.3 s steps of the stair against h = 0.07 (fixed) and adaptive steps: neither grid hits
  // the multiples of 0.3 by itself. Exact up to round-off (a few ulp per step, 1e-12 here).
  for (const auto& [method, h] : {std::pair{"ode4", 0.07}, std::pair{"ode45", 0.0}}) {
    const auto r = run_discrete(stair, method, 2.0, h);
    EXPECT_EQ(r.status, sim::RunStatus::completed) << method;
    EXPECT_EQ(r.mode_end, 6) << method;  // events at 0.3, 0.6, ..., 1.8
    EXPECT_EQ(r.statistics.time_events, 6) << method;
    EXPECT_TRUE(r.events.empty()) << method;  // time events are not state events
    EXPECT_NEAR(r.x_end[0], Stair::exact(2.0, 0.3), 1e-12) << method;
    // Every event time is a step end, so the trajectory passes through the stair's corners.
    for (int k = 1; k <= 6; ++k) {
      const double t = 0.3 * k;
      bool found = false;
      for (std::size_t i = 0; i < r.trajectory.size(); ++i) {
        if (std::abs(r.trajectory.time[i] - t) < 1e-12) {
          found = true;
          EXPECT_NEAR(r.trajectory.states[i][0], Stair::exact(t, 0.3), 1e-12);
        }
      }
      EXPECT_TRUE(found) << method << ": no step ends at t = " << t;
    }
  }
}

TEST(TimeEvents, ATimeEventCanEndTheRun) {
  const Stair stair(3);
  const auto r = run_discrete(stair, "ode45", 2.0);
  EXPECT_EQ(r.status, sim::RunStatus::terminated_by_event);
  EXPECT_TRUE(r.terminated_by_event);
  EXPECT_NEAR(r.t_end, 0.9, 1e-12);
  EXPECT_NEAR(r.x_end[0], Stair::exact(0.9, 0.3), 1e-12);
  EXPECT_NE(r.message.find("time event"), std::string::npos) << r.message;
}

// The guard stops it; tripped by events the model scheduled (no physics accumulating) it is
// an error of the run, not a run that ends early with status zeno and a state to measure.
TEST(TimeEvents, AnEventThatNeverAdvancesTripsTheZenoGuard) {
  const StuckClock stuck;
  try {
    (void)run_discrete(stuck, "ode45", 2.0);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("Zeno guard: 20 events within 2e-06 s up to t = 0.5"),
              std::string::npos)
        << e.what();
  }
}

TEST(StepEvents, TheModelIsAskedAfterEveryAcceptedStep) {
  const Sawtooth saw;
  for (const auto& [method, h] : {std::pair{"ode1", 0.01}, std::pair{"ode45", 0.0}}) {
    const auto r = run_discrete(saw, method, 3.5, h);
    EXPECT_EQ(r.status, sim::RunStatus::completed) << method;
    EXPECT_EQ(r.statistics.step_events, 3) << method;
    EXPECT_EQ(r.mode_end, 3) << method;
    // x' = 1 is integrated exactly by every method; the resets subtract whole units.
    EXPECT_NEAR(r.x_end[0], 0.5, 1e-12) << method;
    // Step events are not located: the reset comes at the first step end past x = 1, so
    // with h = 0.01 the state never exceeds 1 + h (adaptive steps may overshoot further).
    if (h > 0.0) {
      for (const auto& x : r.trajectory.states) EXPECT_LE(x[0], 1.0 + h + 1e-12) << method;
    }
  }
}

TEST(StepEvents, TheModelCanEndTheRunAfterAStep) {
  const Sawtooth saw(0.75);
  const auto r = run_discrete(saw, "ode1", 3.0, 0.1);
  EXPECT_EQ(r.status, sim::RunStatus::terminated_by_event);
  EXPECT_NEAR(r.t_end, 0.8, 1e-12);  // the first step end at or after 0.75
  EXPECT_NE(r.message.find("after the step"), std::string::npos) << r.message;
}

TEST(InitialState, ComesFromTheModelWhenTheSettingsGiveNone) {
  // A model computing its start from the run's parameters (as an FMU's initialization does).
  class Started final : public sim::Model {
   public:
    Started() {
      info_.name = "started";
      info_.states = {"x"};
      info_.parameters = {{"x_start", 3.0, "1", ""}};
      info_.default_x0 = sim::Vector::Zero(1);
    }
    [[nodiscard]] const sim::ModelInfo& info() const override { return info_; }
    void rhs(double, const sim::Vector&, const sim::Context&, sim::Vector& d) const override {
      d = sim::Vector::Zero(1);
    }
    [[nodiscard]] sim::Vector initial_state(double, const sim::Context& c) const override {
      return sim::Vector::Constant(1, c.p[0]);
    }

   private:
    sim::ModelInfo info_;
  };
  const Started model;
  sim::SimulatorSettings s;
  s.parameters = {{"x_start", 7.0}};
  EXPECT_EQ(sim::Simulator(model, s).run().x_end[0], 7.0);
  s.x0 = sim::Vector::Constant(1, -1.0);  // the settings' x0 wins
  EXPECT_EQ(sim::Simulator(model, s).run().x_end[0], -1.0);
}
