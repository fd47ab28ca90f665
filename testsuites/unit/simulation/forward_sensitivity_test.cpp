// Forward sensitivity equations against closed forms and against finite differences of whole
// simulations (an independent computation), including across events.
#include "diagram_test_support.hpp"

#include <simverify/simulation/analysis/forward_sensitivity.hpp>
#include <simverify/simulation/diagram/diagram_model.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

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

namespace {

namespace dg = simverify::simulation::diagram;
using dg::testing::block;
using dg::testing::number;
using dg::testing::text;
using dg::testing::wire;

// A run of the sensitivity model (the plain model's default x0) at rtol 1e-11.
struct SensitivityRun {
  sim::SimulatorResult result;
  sim::Matrix s;                               // dx(tf)/dp
  std::vector<Eigen::RowVectorXd> event_time;  // dtau_k/dp
};
SensitivityRun accurate_sensitivity(const sim::Model& model, const std::vector<std::string>& wrt,
                                    double tf) {
  const ana::ForwardSensitivityModel augmented(model, wrt);
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.stepper.rtol = 1e-11;
  s.stepper.atol = {1e-13};
  s.tf = tf;
  const sim::Simulator simulator(augmented, s);
  SensitivityRun run{simulator.run(), {}, {}};
  run.s = augmented.sensitivities(run.result.x_end);
  for (const auto& event : run.result.events) {
    run.event_time.push_back(augmented.event_time_sensitivity(event, simulator.parameters()));
  }
  return run;
}

// The held band of a limited integrator (dynamic_blocks.cpp): its clamp is located where x
// is 4 sqrt(eps) = 6e-8 (relative) below the limit, so the event time and its derivatives
// are (1 - 6e-8) times the closed form's; 1e-7 relative covers that, rtol 1e-11 adds nothing
// visible.
constexpr double kBandTolerance = 1e-7;

// x' = k limited at upper L, x(0) = 0: x = min(k t, L), tau = L / k.
dg::DiagramSpec saturating_ramp() {
  dg::DiagramSpec d;
  d.name = "saturating_ramp";
  d.parameters = {{"k", 2.0, {}}};
  d.blocks = {block("k", "constant", {text("value", "k")}),
              block("x", "integrator", {number("upper", 1.0)})};
  d.connections = {wire("k", "x")};
  return d;
}

}  // namespace

// Before: dtau/dk was 0 (f- taken at the located state, already held: g_dot = 0), and with
// respect to the limit p.x.upper the run failed with "step size underflow" (the central
// quotients of f_x and f_p straddled the band's edge: about -k / 1.2e-5, a stiff S').
TEST(ForwardSensitivity, LimitedIntegratorMatchesTheClosedFormAcrossItsClamp) {
  const dg::DiagramModel model(dg::compile(saturating_ramp()));
  const double k = 2.0, limit = 1.0, tau = limit / k;
  // After the clamp: x(tf) = L, so dx/dk = 0, dx/dL = 1; dtau/dk = -L / k^2, dtau/dL = 1 / k.
  const auto after = accurate_sensitivity(model, {"k", "x.upper"}, 1.0);
  ASSERT_EQ(after.result.events.size(), 1U);
  EXPECT_NEAR(after.event_time[0](0), -limit / (k * k), kBandTolerance * limit / (k * k));
  EXPECT_NEAR(after.event_time[0](1), 1.0 / k, kBandTolerance / k);
  // While held S' = 0 and the clamp sets S = dL/dp: only the rounding of R_p's quotient.
  EXPECT_NEAR(after.s(0, 0), 0.0, 1e-9);
  EXPECT_NEAR(after.s(0, 1), 1.0, 1e-9);
  // Before the clamp x = k t: dx/dk = t, dx/dL = 0 (the quotient of f_p is exact for f = k).
  const double t = 0.8 * tau;
  const auto before = accurate_sensitivity(model, {"k", "x.upper"}, t);
  ASSERT_TRUE(before.result.events.empty());
  EXPECT_NEAR(before.s(0, 0), t, 1e-9);
  EXPECT_NEAR(before.s(0, 1), 0.0, 1e-12);
}

// x' = A sin(w t) limited at upper L, x(0) = 0 (A = 2, w = pi, L = 1): x = A/w (1 - cos w t)
// up to the clamp at cos(w tau) = 1 - L w / A, held until u turns at t = pi / w = 1, then
// x = L - A/w (1 + cos w t). At tf = 1.5: dx/dL = 1, dx/dA = -(1 + cos w tf) / w,
// dx/dw = A/w^2 (1 + cos w tf) + A/w tf sin(w tf); dtau/dA = -L / (A^2 sin w tau),
// dtau/dL = 1 / (A sin w tau).
TEST(ForwardSensitivity, SaturatingIntegratorOfASineMatchesClosedFormsAndFiniteDifferences) {
  dg::DiagramSpec d;
  d.name = "saturating_sine";
  d.parameters = {{"A", 2.0, {}}, {"w", std::numbers::pi, {}}, {"L", 1.0, {}}};
  d.blocks = {block("clk", "clock"), block("u", "function", {text("expr", "A * sin(w * tt)")}),
              block("x", "integrator", {text("upper", "L")})};
  d.blocks[1].function_inputs = {"tt"};
  d.connections = {wire("clk", "u.tt"), wire("u", "x")};
  const dg::DiagramModel model(dg::compile(d));
  const double a = 2.0, w = std::numbers::pi, limit = 1.0, tf = 1.5;
  const auto run = accurate_sensitivity(model, {"A", "w", "L"}, tf);
  ASSERT_EQ(run.result.events.size(), 1U);
  const double tau = std::acos(1.0 - limit * w / a) / w;
  EXPECT_NEAR(run.result.events[0].time, tau, 1e-7);
  const double c = std::cos(w * tf), sn = std::sin(w * tf);
  const double exact[] = {-(1.0 + c) / w, a / (w * w) * (1.0 + c) + a / w * tf * sn, 1.0};
  // The clamp 6e-8 early moves the held state's entry by that much; x(tf) does not depend on
  // it (the release is where u turns). What remains: rtol 1e-11, and for w the quotients of
  // f_p in the ~6e-6 s around the release, where w +- h lies across u's turn (f's kink),
  // taken on the side where f is linear (mode_quotient): 8e-11 measured at rtol 1e-10 (3e-6
  // when the side was chosen by the size of the change alone), so 1e-9.
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(run.s(0, j), exact[j], 1e-9) << "column " << j;
  const double sin_tau = std::sin(w * tau);
  EXPECT_NEAR(run.event_time[0](0), -limit / (a * a * sin_tau), 1e-6);
  EXPECT_NEAR(run.event_time[0](2), 1.0 / (a * sin_tau), 1e-6);

  // Independent: central differences of plain runs at rtol 1e-12, step 1e-4 of the value.
  // Their error: truncation d^2 x^(3) ~ 1e-8 and the runs' own error 1e-12 / d ~ 1e-8.
  const std::vector<std::pair<std::string, double>> nominal = {{"A", a}, {"w", w}, {"L", limit}};
  for (int j = 0; j < 3; ++j) {
    const auto& [name, value] = nominal[static_cast<std::size_t>(j)];
    const double step = 1e-4 * value;
    auto x_end = [&](double p) {
      sim::SimulatorSettings s;
      s.method = "ode45";
      s.stepper.rtol = 1e-12;
      s.stepper.atol = {1e-14};
      s.tf = tf;
      s.parameters = {{name, p}};
      return sim::Simulator(model, s).run().x_end(0);
    };
    const double fd = (x_end(value + step) - x_end(value - step)) / (2 * step);
    EXPECT_NEAR(run.s(0, j), fd, 1e-6) << name;
  }
}

// A switch (u1 when control >= threshold, else u2) makes f jump where its event fires: x' = a
// while x < c, x' = b after, x(0) = 0 (a = 1, b = 3, c = 0.4, tf = 1): tau = c / a,
// x(tf) = c + b (tf - tau), so dx/da = b c / a^2, dx/db = tf - tau, dx/dc = 1 - b / a. The
// same switch driven by the clock at T = c (g = t - T does not depend on x): x(tf) = a T +
// b (tf - T), dx/dT = a - b. Before, f- was taken at the located state, past the threshold:
// f+ (no jump of S, dtau/dc = 1 / b).
TEST(ForwardSensitivity, SwitchEventsJumpTheSensitivitiesByTheClosedForm) {
  const double a = 1.0, b = 3.0, c = 0.4, tf = 1.0;
  for (const bool by_time : {false, true}) {
    dg::DiagramSpec d;
    d.name = "switched_rate";
    d.parameters = {{"a", a, {}}, {"b", b, {}}, {"c", c, {}}};
    d.blocks = {block("a", "constant", {text("value", "a")}),
                block("b", "constant", {text("value", "b")}),
                block("sw", "switch", {text("threshold", "c")}), block("x", "integrator")};
    d.connections = {wire("b", "sw.u1"), wire("a", "sw.u2"), wire("sw", "x")};
    if (by_time) {
      d.blocks.push_back(block("clk", "clock"));
      d.connections.push_back(wire("clk", "sw.control"));
    } else {
      d.connections.push_back(wire("x", "sw.control"));
    }
    const dg::DiagramModel model(dg::compile(d));
    const auto run = accurate_sensitivity(model, {"a", "b", "c"}, tf);
    ASSERT_EQ(run.result.events.size(), 1U) << by_time;
    const double tau = c / a;
    // Straight lines: the runs are exact up to the event's location (1e-12) and rounding.
    EXPECT_NEAR(run.result.x_end(0), c + b * (tf - tau), 1e-10) << by_time;
    if (by_time) {
      EXPECT_NEAR(run.s(0, 0), tau, 1e-9);
      EXPECT_NEAR(run.s(0, 1), tf - tau, 1e-9);
      EXPECT_NEAR(run.s(0, 2), a - b, 1e-9);
      EXPECT_NEAR(run.event_time[0](2), 1.0, 1e-9);
    } else {
      EXPECT_NEAR(run.s(0, 0), b * c / (a * a), 1e-9);
      EXPECT_NEAR(run.s(0, 1), tf - tau, 1e-9);
      EXPECT_NEAR(run.s(0, 2), 1.0 - b / a, 1e-9);
      EXPECT_NEAR(run.event_time[0](0), -c / (a * a), 1e-9);
      EXPECT_NEAR(run.event_time[0](2), 1.0 / a, 1e-9);
    }
  }
}

// Sampled feedback x' = -a z, z = x held at t = k T (T = 0.1, a = 2, x(0) = 1): x(k T) =
// (1 - a T)^k, so dx(1)/da = -10 T (1 - a T)^9. Before, the sensitivity model passed none of
// the inner model's time events on: the hold never sampled again and x(1) was -1.
TEST(ForwardSensitivity, AHoldSamplesAndJumpsTheSensitivitiesAtItsInstants) {
  dg::DiagramSpec d;
  d.name = "sampled_feedback";
  d.parameters = {{"a", 2.0, {}}};
  d.blocks = {block("x", "integrator", {number("x0", 1.0)}),
              block("z", "zero_order_hold", {number("T", 0.1)}),
              block("g", "gain", {text("k", "a")}), block("n", "gain", {number("k", -1.0)})};
  d.connections = {wire("x", "z"), wire("z", "g"), wire("g", "n"), wire("n", "x")};
  const dg::DiagramModel model(dg::compile(d));
  const auto run = accurate_sensitivity(model, {"a"}, 1.0);
  // Straight lines between samples: exact but for rounding and R_x's quotients.
  EXPECT_NEAR(run.result.x_end(0), std::pow(0.8, 10), 1e-12);
  EXPECT_NEAR(run.s(0, 0), -10 * 0.1 * std::pow(0.8, 9), 1e-9);
  // The sampling instants move with T: refused, not continued as if they stood still.
  EXPECT_THROW((void)accurate_sensitivity(model, {"z.T"}, 1.0), std::runtime_error);
}
