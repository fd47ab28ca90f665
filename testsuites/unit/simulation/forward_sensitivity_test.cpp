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

sim::SimulatorResult run(const sim::Model& model, const sim::Vector& x0, double tf,
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
  const auto result = run(augmented, augmented.initial_state(x0), 1.5, {{"lambda", -0.7}});
  const double exact = 1.5 * 2.0 * std::exp(-0.7 * 1.5);
  // ode4 with h = 1e-4: global error ~ 1e-16 per unit; the f_p finite difference is exact for
  // a linear-in-lambda right-hand side up to round-off.
  EXPECT_NEAR(augmented.sensitivities(result.x_end)(0, 0), exact, 1e-10);
}

TEST(ForwardSensitivity, ContinuesAcrossEventsLikeFiniteDifferences) {
  const DroppedBall ball;
  const ana::ForwardSensitivityModel augmented(ball, {"g", "e"});
  const sim::Vector x0 = ball.info().default_x0;
  const double tf = 0.7;  // after the first impact at sqrt(2/9.81) = 0.4515 s
  const auto result = run(augmented, augmented.initial_state(x0), tf, {});
  ASSERT_EQ(result.events.size(), 1u);
  const sim::Matrix s = augmented.sensitivities(result.x_end);

  // Independent: central differences of whole simulations of the plain model.
  for (const auto& [name, value, column] : {std::tuple{"g", 9.81, 0}, std::tuple{"e", 0.8, 1}}) {
    const double d = 1e-5 * value;
    const auto plus = run(ball, x0, tf, {{name, value + d}});
    const auto minus = run(ball, x0, tf, {{name, value - d}});
    const sim::Vector fd = (plus.x_end - minus.x_end) / (2 * d);
    // The finite difference carries O(d^2) truncation and the event location error of the
    // perturbed runs (~1e-12 s times v ~ 4 m/s, divided by 2d): ~1e-6 relative is attainable.
    for (Eigen::Index i = 0; i < 2; ++i) {
      EXPECT_NEAR(s(i, column), fd(i), 1e-5 * std::max(1.0, std::abs(fd(i))))
          << "d" << ball.info().states[static_cast<std::size_t>(i)] << "/d" << name;
    }
  }
}
