// Forward sensitivity equations against closed forms and against finite differences of whole
// simulations (an independent computation), including across events.
#include <simverify/simulation/analysis/forward_sensitivity.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace sim = simverify::simulation;
namespace ana = simverify::simulation::analysis;

namespace {

// A ball dropped from height H: y'' = -g, with an impact event at y = 0 (falling) that
// reverses the velocity with restitution e. Parameters: g, e.
class DroppedBall final : public sim::Model {
 public:
  DroppedBall() {
    info_.name = "dropped_ball";
    info_.states = {"y", "v"};
    info_.outputs = info_.states;
    info_.parameters = {{"g", 9.81, "m/s^2", ""}, {"e", 0.8, "", ""}};
    info_.events = {{"impact", sim::EventDirection::falling, false}};
    info_.default_x0 = sim::Vector::Zero(2);
    info_.default_x0 << 1.0, 0.0;
  }
  [[nodiscard]] const sim::ModelInfo& info() const override { return info_; }
  void rhs(double, const sim::Vector& x, const sim::Context& c, sim::Vector& dx) const override {
    dx.resize(2);
    dx << x(1), -c.p[0];
  }
  double event_value(std::size_t, double, const sim::Vector& x,
                     const sim::Context&) const override {
    return x(0);
  }
  sim::EventAction on_event(std::size_t, double, sim::Vector& x, sim::Context& c) const override {
    x(1) = -c.p[1] * x(1);
    return sim::EventAction::resume;
  }

 private:
  sim::ModelInfo info_;
};

sim::SimulatorResult run_sensitivity(const sim::Model& model, const sim::Vector& x0, double tf,
                                     std::vector<std::pair<std::string, double>> parameters) {
  sim::SimulatorSettings s;
  s.method = "ode4";
  s.h = 1e-4;
  s.tf = tf;
  s.x0 = x0;
  s.parameters = std::move(parameters);
  return sim::Simulator(model, s).run();
}

}  // namespace

TEST(ForwardSensitivity, ExponentialMatchesTheClosedForm) {
  // x = x0 exp(lambda t)  =>  dx/dlambda = t x0 exp(lambda t).
  const auto model = sim::make_model("exponential");
  const ana::ForwardSensitivityModel augmented(*model, {"lambda"});
  sim::Vector x0(1);
  x0 << 2.0;
  const auto result =
      run_sensitivity(augmented, augmented.augmented_state(x0), 1.5, {{"lambda", -0.7}});
  const double exact = 1.5 * 2.0 * std::exp(-0.7 * 1.5);
  // ode4 with h = 1e-4: global error ~ 1e-16 per unit; the f_p finite difference is exact for
  // a linear-in-lambda right-hand side up to round-off.
  EXPECT_NEAR(augmented.sensitivities(result.x_end)(0, 0), exact, 1e-10);
}

// x' = -a x from x(0) = c, a parameter (as a diagram's integrator started at a parameter):
// with no x0 in the settings the run starts at the inner model's initial state, and the
// sensitivities at dx0/dp. Parameters: a, c.
class ParameterStart final : public sim::Model {
 public:
  ParameterStart() {
    info_.name = "parameter_start";
    info_.states = {"x"};
    info_.outputs = info_.states;
    info_.parameters = {{"a", 0.5, "1/s", ""}, {"c", 2.0, "", ""}};
    info_.default_x0 = sim::Vector::Constant(1, 2.0);
  }
  [[nodiscard]] const sim::ModelInfo& info() const override { return info_; }
  void rhs(double, const sim::Vector& x, const sim::Context& c, sim::Vector& dx) const override {
    dx.resize(1);
    dx << -c.p[0] * x(0);
  }
  [[nodiscard]] sim::Vector initial_state(double, const sim::Context& c) const override {
    return sim::Vector::Constant(1, c.p[1]);
  }

 private:
  sim::ModelInfo info_;
};

TEST(ForwardSensitivity, StartsAtTheDerivativesOfAParameterDependentInitialState) {
  // x = c exp(-a t)  =>  dx/dc = exp(-a t), dx/da = -t c exp(-a t).
  const ParameterStart model;
  const ana::ForwardSensitivityModel augmented(model, {"a", "c"});
  const double tf = 1.5, a = 0.8, c = 3.0;
  const auto result = run_sensitivity(augmented, sim::Vector{}, tf, {{"a", a}, {"c", c}});
  // ode4 with h = 1e-4: global error ~1e-16; the x0 central difference is exact for x0 = c up
  // to round-off (~1e-11 relative), so 1e-9 leaves two orders of magnitude.
  EXPECT_NEAR(result.x_end(0), c * std::exp(-a * tf), 1e-9);
  const sim::Matrix s = augmented.sensitivities(result.x_end);
  EXPECT_NEAR(s(0, 0), -tf * c * std::exp(-a * tf), 1e-9);
  EXPECT_NEAR(s(0, 1), std::exp(-a * tf), 1e-9);
}

TEST(ForwardSensitivity, ContinuesAcrossEventsLikeFiniteDifferences) {
  const DroppedBall ball;
  const ana::ForwardSensitivityModel augmented(ball, {"g", "e"});
  const sim::Vector x0 = ball.info().default_x0;
  const double tf = 0.7;  // after the first impact at sqrt(2/9.81) = 0.4515 s
  const auto result = run_sensitivity(augmented, augmented.augmented_state(x0), tf, {});
  ASSERT_EQ(result.events.size(), 1u);
  const sim::Matrix s = augmented.sensitivities(result.x_end);

  // Independent: central differences of whole simulations of the plain model.
  for (const auto& [name, value, column] : {std::tuple{"g", 9.81, 0}, std::tuple{"e", 0.8, 1}}) {
    const double d = 1e-5 * value;
    const auto plus = run_sensitivity(ball, x0, tf, {{name, value + d}});
    const auto minus = run_sensitivity(ball, x0, tf, {{name, value - d}});
    const sim::Vector fd = (plus.x_end - minus.x_end) / (2 * d);
    // The finite difference carries O(d^2) truncation and the event location error of the
    // perturbed runs (~1e-12 s times v ~ 4 m/s, divided by 2d): ~1e-6 relative is attainable.
    for (Eigen::Index i = 0; i < 2; ++i) {
      EXPECT_NEAR(s(i, column), fd(i), 1e-5 * std::max(1.0, std::abs(fd(i))))
          << "d" << ball.info().states[static_cast<std::size_t>(i)] << "/d" << name;
    }
  }
}

TEST(ForwardSensitivity, EventTimeOfTheDroppedBallMatchesTheClosedForm) {
  // Impact at tau = sqrt(2 H / g): dtau/dg = -tau / (2 g); the restitution e acts after it.
  const DroppedBall ball;
  const ana::ForwardSensitivityModel augmented(ball, {"g", "e"});
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.stepper.rtol = 1e-11;
  s.stepper.atol = {1e-13};
  s.tf = 0.7;
  const sim::Simulator simulator(augmented, s);
  const auto result = simulator.run();
  ASSERT_EQ(result.events.size(), 1u);
  const Eigen::RowVectorXd dtau =
      augmented.event_time_sensitivity(result.events[0], simulator.parameters());
  const double tau = std::sqrt(2.0 / 9.81);
  // The event is located to 1e-12 s and the sensitivities integrated at rtol 1e-11; g_x and
  // g_p by central differences of a linear event function are exact to round-off.
  EXPECT_NEAR(dtau(0), -tau / (2 * 9.81), 1e-9);
  EXPECT_NEAR(dtau(1), 0.0, 1e-12);
}

TEST(ForwardSensitivity, EventTimeDependsOnAParameterOfTheEventFunction) {
  // The pendulum's hit event g = phi - phi_pin depends on phi_pin itself (g_p = -1): at the hit
  // phi(tau) = phi_pin, so dtau/dphi_pin = 1/phi'(tau) = l / v(tau). scipy DOP853 at rtol
  // 1e-13 (terminal event phi = phi_pin falling, x0 = (pi/6, 0)): v(tau) = -1.248738792076449
  // m/s (nonlinear), -1.2691304581057137 m/s (linear), so dtau/dphi_pin = -0.8008079883040736
  // and -0.7879410612306839 s/rad.
  for (const auto& [variant, expected] :
       {std::pair{"nonlinear", -0.8008079883040736}, std::pair{"linear", -0.7879410612306839}}) {
    const auto model = sim::make_model("constrained_pendulum", variant);
    const ana::ForwardSensitivityModel augmented(*model, {"phi_pin"});
    sim::SimulatorSettings s;
    s.method = "ode45";
    s.stepper.rtol = 1e-11;
    s.stepper.atol = {1e-13};
    s.tf = 1.0;  // the hit only (release comes later)
    const sim::Simulator simulator(augmented, s);
    const auto result = simulator.run();
    ASSERT_EQ(result.events.size(), 1u) << variant;
    const double dtau =
        augmented.event_time_sensitivity(result.events[0], simulator.parameters())(0);
    // rtol 1e-11 on phi and v: ~1e-10 relative in v(tau).
    EXPECT_NEAR(dtau, expected, 1e-9) << variant;
  }
}

TEST(ForwardSensitivity, EventTimeSensitivityRejectsAForeignEvent) {
  const DroppedBall ball;
  const ana::ForwardSensitivityModel augmented(ball, {"g"});
  sim::EventRecord event;
  event.state = sim::Vector::Zero(2);  // the plain model's state, not [x; dx/dg]
  const std::vector<double> p = {9.81, 0.8};
  EXPECT_THROW((void)augmented.event_time_sensitivity(event, p), std::invalid_argument);
}
