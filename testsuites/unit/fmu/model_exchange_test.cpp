// Model exchange through both FMI versions, each test FMU against a closed form or the
// built-in model with the same equations.
#include <simverify/fmu/model_exchange.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include "fmu_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

namespace sim = simverify::simulation;
using namespace simverify::fmu;
using simverify::fmu::testing::test_fmu;

class ModelExchange : public ::testing::TestWithParam<int> {
 protected:
  [[nodiscard]] std::unique_ptr<ModelExchangeModel> model(const std::string& name,
                                                          const NamedInputs& inputs = {}) const {
    return std::make_unique<ModelExchangeModel>(Fmu::open(test_fmu(GetParam(), name)), inputs);
  }
};

namespace {

sim::SimulatorResult simulate(const sim::Model& model, sim::SimulatorSettings s) {
  return sim::Simulator(model, std::move(s)).run();
}

sim::SimulatorSettings settings(const std::string& method, double tf, double rtol) {
  sim::SimulatorSettings s;
  s.method = method;
  s.tf = tf;
  s.stepper.rtol = rtol;
  s.stepper.atol = {rtol};
  return s;
}

}  // namespace

TEST_P(ModelExchange, DescribesItselfAsAModel) {
  const auto ball = model("BouncingBall");
  const sim::ModelInfo& info = ball->info();
  EXPECT_EQ(info.name, "BouncingBall");
  EXPECT_EQ(info.states, (std::vector<std::string>{"h", "v"}));
  EXPECT_EQ(info.outputs, (std::vector<std::string>{"h", "v"}));
  ASSERT_EQ(info.parameters.size(), 3u);
  EXPECT_EQ(info.parameters[1].name, "e");
  EXPECT_EQ(info.parameters[1].default_value, 0.8);
  ASSERT_EQ(info.events.size(), 1u);
  EXPECT_EQ(info.events[0].direction, sim::EventDirection::either);
  EXPECT_EQ(info.default_tf, 3.0);
  EXPECT_FALSE(ball->has_jacobian());
  EXPECT_TRUE(model("VanDerPol")->has_jacobian());
}

// The same equations as the built-in van_der_pol, integrated by the same method and settings:
// the runs agree to round-off (1e-10 leaves room for a differently ordered sum in the FMU).
TEST_P(ModelExchange, VanDerPolMatchesTheBuiltInModel) {
  const auto fmu = model("VanDerPol");
  const auto builtin = sim::make_model("van_der_pol");
  for (const std::string method : {"ode45", "ode15s", "radau2a"}) {
    auto s = settings(method, 20.0, 1e-8);
    if (method == "radau2a") s.h = 0.01;
    s.parameters = {{"mu", 2.0}};
    const auto from_fmu = simulate(*fmu, s);
    const auto from_builtin = simulate(*builtin, s);
    EXPECT_EQ(from_fmu.statistics.steps, from_builtin.statistics.steps) << method;
    EXPECT_NEAR(from_fmu.x_end[0], from_builtin.x_end[0], 1e-10) << method;
    EXPECT_NEAR(from_fmu.x_end[1], from_builtin.x_end[1], 1e-10) << method;
  }
}

// The fixed-size path (f one plain call per stage into the FMU's functions) against the
// generic one (a run with an input signal: these FMUs have no input, so it changes nothing
// else): the same steps, events and states, bitwise, also across state and time events.
TEST_P(ModelExchange, TheFixedSizePathGivesTheGenericResults) {
  const std::vector<double> mu{2.0};
  const sim::Context context{mu, {}, 0};
  EXPECT_NE(model("VanDerPol")->fixed_size_stepper("ode45", context), nullptr);
  EXPECT_EQ(model("VanDerPol")->fixed_size_stepper("ode15s", context), nullptr);
  // Inputs are set at every f: the generic path.
  EXPECT_EQ(model("Feedthrough", {{"u1", sim::constant_input(1.0)}})
                ->fixed_size_stepper("ode45", context),
            nullptr);
  {
    // Its f works on the run's instance: before initial_state or initial_mode it says so.
    const auto fresh = model("VanDerPol");
    const auto stepper = fresh->fixed_size_stepper("ode45", context);
    const sim::OdeSystem system(2, [](double, const sim::Vector&, sim::Vector&) {});
    const sim::Vector x0{{2.0, 0.0}};
    stepper->initialize(system, 0.0, x0, {});
    sim::Vector x1;
    EXPECT_THROW((void)stepper->step(system, 0.0, x0, 0.1, x1), FmuError);
  }
  for (const auto& [name, method, tf] :
       std::vector<std::tuple<std::string, std::string, double>>{{"VanDerPol", "ode45", 20.0},
                                                                 {"VanDerPol", "ode23", 5.0},
                                                                 {"VanDerPol", "rk43", 5.0},
                                                                 {"BouncingBall", "ode45", 3.0},
                                                                 {"Stair", "ode45", 2.0}}) {
    const auto fmu = model(name);
    auto s = settings(method, tf, 1e-8);
    const auto fixed = simulate(*fmu, s);
    s.input = sim::constant_input(0.0);
    const auto generic = simulate(*fmu, s);
    const std::string what = name + " " + method;
    EXPECT_TRUE(fixed.x_end == generic.x_end) << what;
    EXPECT_EQ(fixed.statistics.steps, generic.statistics.steps) << what;
    EXPECT_EQ(fixed.statistics.rhs_evaluations, generic.statistics.rhs_evaluations) << what;
    ASSERT_EQ(fixed.events.size(), generic.events.size()) << what;
    for (std::size_t k = 0; k < fixed.events.size(); ++k) {
      EXPECT_EQ(fixed.events[k].time, generic.events[k].time) << what;
    }
    ASSERT_EQ(fixed.trajectory.states.size(), generic.trajectory.states.size()) << what;
    for (std::size_t k = 0; k < fixed.trajectory.states.size(); ++k) {
      ASSERT_TRUE(fixed.trajectory.states[k] == generic.trajectory.states[k]) << what << " " << k;
    }
  }
}

// Directional derivatives are the Jacobian: column by column, equal to the analytic one.
TEST_P(ModelExchange, DirectionalDerivativesAreTheJacobian) {
  const auto fmu = model("VanDerPol");
  const auto builtin = sim::make_model("van_der_pol");
  const std::vector<double> p{1.7};
  const sim::Context context{p, {}, 0};
  const sim::Vector x0{{2.0, 0.0}};
  (void)fmu->initial_mode(0.0, x0, context);
  for (const auto& x :
       {sim::Vector{{2.0, 0.0}}, sim::Vector{{-0.3, 1.4}}, sim::Vector{{1.1, -2.5}}}) {
    sim::Matrix from_fmu, analytic;
    fmu->jacobian(0.5, x, context, from_fmu);
    builtin->jacobian(0.5, x, context, analytic);
    EXPECT_TRUE(from_fmu.isApprox(analytic, 1e-15)) << from_fmu << "\nvs\n" << analytic;
  }
}

// Bounces of a ball dropped from h0: first at sqrt(2 h0 / g), then every
// 2 e^k sqrt(2 g h0) / g. The initial height is a parameter the FMU turns into its state.
TEST_P(ModelExchange, BouncingBallEventsMatchTheClosedForm) {
  const auto ball = model("BouncingBall");
  auto s = settings("ode45", 3.0, 1e-10);
  s.parameters = {{"h0", 2.0}, {"e", 0.7}};
  const auto run = simulate(*ball, s);
  const double g = 9.81, h0 = 2.0, e = 0.7;
  std::vector<double> expected{std::sqrt(2.0 * h0 / g)};
  double speed = std::sqrt(2.0 * g * h0);
  while (true) {
    speed *= e;
    const double next = expected.back() + 2.0 * speed / g;
    if (next > 3.0) break;
    expected.push_back(next);
  }
  ASSERT_EQ(run.events.size(), expected.size());
  // The locator's bracket is 1e-12 wide; rtol 1e-10 puts the state within ~1e-9 of exact.
  for (std::size_t k = 0; k < expected.size(); ++k) {
    EXPECT_NEAR(run.events[k].time, expected[k], 1e-8) << "bounce " << k;
  }
  EXPECT_EQ(run.trajectory.states.front()[0], 2.0);  // h = h0 from the FMU's initialization
}

// Time events: steps end on the stair's corners, so x = integral of the stair is exact.
TEST_P(ModelExchange, StairTimeEventsAreHitExactly) {
  const auto stair = model("Stair");
  for (const std::string method : {"ode45", "ode4"}) {
    auto s = settings(method, 2.0, 1e-6);
    s.h = 0.07;
    const auto run = simulate(*stair, s);
    const double k = 6.0;  // corners at 0.3, ..., 1.8
    EXPECT_NEAR(run.x_end[0], 0.3 * k * (k - 1.0) / 2.0 + k * (2.0 - k * 0.3), 1e-12) << method;
    EXPECT_EQ(run.statistics.time_events, 6) << method;
    EXPECT_EQ(run.status, sim::RunStatus::completed);
  }
  // terminateSimulation after `steps` steps ends the run at that event.
  auto s = settings("ode45", 2.0, 1e-6);
  s.parameters = {{"steps", 3.0}};
  const auto run = simulate(*stair, s);
  EXPECT_EQ(run.status, sim::RunStatus::terminated_by_event);
  EXPECT_NEAR(run.t_end, 0.9, 1e-12);
  EXPECT_NEAR(run.x_end[0], 0.3 * 3.0, 1e-12);  // 0.3 (0 + 1 + 2)
}

// Step events: x' = 1 reset by 1 whenever a step ends at x >= 1: x_end = tf - floor(tf).
TEST_P(ModelExchange, SawtoothStepEventsAreHonoured) {
  const auto saw = model("Sawtooth");
  auto s = settings("ode1", 3.5, 1e-6);
  s.h = 0.01;
  s.record_outputs = true;
  const auto run = simulate(*saw, s);
  EXPECT_NEAR(run.x_end[0], 0.5, 1e-9);
  EXPECT_EQ(run.statistics.step_events, 3);
  EXPECT_EQ(run.trajectory.outputs.back()[1], 3.0);  // resets
}

// Named inputs drive the FMU's inputs: sum = u1 + 2 u2 + 3 u3, product = u1 u2, x = int u1.
TEST_P(ModelExchange, FeedthroughTakesNamedInputs) {
  const NamedInputs inputs{{"u1", sim::sine_input(1.0, 0.5, 0.0)},
                           {"u2", sim::constant_input(2.0)},
                           {"u3", sim::ramp_input(0.0, 1.0)}};
  const auto feed = model("Feedthrough", inputs);
  auto s = settings("ode45", 1.0, 1e-10);
  s.record_outputs = true;
  const auto run = simulate(*feed, s);
  for (std::size_t i = 0; i < run.trajectory.size(); ++i) {
    const double t = run.trajectory.time[i];
    const double u1 = std::sin(2.0 * M_PI * 0.5 * t);
    EXPECT_NEAR(run.trajectory.outputs[i][0], u1 + 2.0 * 2.0 + 3.0 * t, 1e-14) << t;
    EXPECT_NEAR(run.trajectory.outputs[i][1], u1 * 2.0, 1e-14) << t;
  }
  // int_0^1 sin(pi t) dt = 2 / pi; rtol 1e-10.
  EXPECT_NEAR(run.x_end[0], 2.0 / M_PI, 1e-9);
  EXPECT_THROW(model("Feedthrough", {{"u4", sim::constant_input(0.0)}}), FmuError);
}

TEST_P(ModelExchange, AnErrorCarriesTheFunctionTimeAndLog) {
  const auto failing = model("ErrorAt");
  auto s = settings("ode45", 1.0, 1e-6);
  s.parameters = {{"t_error", 0.25}};
  try {
    (void)simulate(*failing, s);
    FAIL() << "expected an FmuError";
  } catch (const FmuError& e) {
    const std::string what = e.what();
    const std::string function = GetParam() == 2 ? "fmi2GetDerivatives returned fmi2Error"
                                                 : "fmi3GetContinuousStateDerivatives returned "
                                                   "fmi3Error";
    const std::string prefix = "FMU 'ErrorAt.fmu': " + function + " at t = ";
    ASSERT_EQ(what.substr(0, prefix.size()), prefix) << what;
    // The first evaluation at or past t_error fails: a stage time of the step across it.
    const double t = std::stod(what.substr(prefix.size()));
    EXPECT_GE(t, 0.25);
    EXPECT_LT(t, 0.5);
    EXPECT_NE(what.find("[error logStatusError] simulated failure: the equations have no solution"),
              std::string::npos)
        << what;
  }
}

TEST_P(ModelExchange, ACrashTakesDownOnlyItsProcess) {
  const auto crash = model("Crash");
  auto s = settings("ode45", 1.0, 1e-6);
  EXPECT_EXIT((void)simulate(*crash, s), ::testing::KilledBySignal(SIGSEGV), "");
}

TEST_P(ModelExchange, EachRunStartsAFreshInstance) {
  const auto ball = model("BouncingBall");
  const auto s = settings("ode45", 1.0, 1e-8);
  const auto first = simulate(*ball, s);
  const auto second = simulate(*ball, s);
  EXPECT_EQ(first.x_end, second.x_end);
  EXPECT_EQ(first.events.size(), second.events.size());
  auto from_x0 = s;
  from_x0.x0 = sim::Vector{{0.5, 1.0}};  // the run's x0 replaces the FMU's initial states
  const auto thrown = simulate(*ball, from_x0);
  EXPECT_EQ(thrown.trajectory.states.front(), from_x0.x0);
  // Up 1 m/s from 0.5 m: apex at 0.5 + 1 / (2 g), first bounce at (1 + sqrt(1 + 2 g 0.5)) / g.
  ASSERT_FALSE(thrown.events.empty());
  EXPECT_NEAR(thrown.events[0].time, (1.0 + std::sqrt(1.0 + 2.0 * 9.81 * 0.5)) / 9.81, 1e-8);
}

// The instance skips setting a time or states it holds already: a point revisited after
// another, and states an event changed inside the FMU, must still be handed over. The points'
// derivatives differ by O(1), so a stale state shows; 1e-12 is round-off in Van der Pol's f.
TEST_P(ModelExchange, RevisitedPointsGetTheirOwnDerivatives) {
  const auto fmu = model("VanDerPol");
  const auto builtin = sim::make_model("van_der_pol");
  const std::vector<double> mu{1.0};
  const sim::Context context{mu, {}, 0};
  const sim::Vector a{{2.0, 0.0}}, b{{-0.3, 1.4}};
  (void)fmu->initial_mode(0.0, a, context);
  for (const auto& [t, x] : std::vector<std::pair<double, sim::Vector>>{
           {0.0, a}, {0.1, b}, {0.1, a}, {0.2, a}, {0.2, b}, {0.2, b}, {0.0, a}}) {
    sim::Vector from_fmu, expected;
    fmu->rhs(t, x, context, from_fmu);
    builtin->rhs(t, x, context, expected);
    EXPECT_NEAR((from_fmu - expected).norm(), 0.0, 1e-12) << t << ": " << x.transpose();
  }
  // A bounce turns v = -3 into 0.8 * 3 inside the FMU; f at the pre-bounce state still has
  // h' = -3.
  const auto ball = model("BouncingBall");
  const std::vector<double> p{9.81, 0.8, 1.0};
  sim::Context ball_context{p, {}, 0};
  (void)ball->initial_mode(0.0, sim::Vector{{1.0, 0.0}}, ball_context);
  const sim::Vector impact{{0.0, -3.0}};
  sim::Vector after = impact;
  EXPECT_EQ(ball->on_event(0, 0.45, after, ball_context), sim::EventAction::resume);
  EXPECT_NEAR(after[1], 2.4, 1e-15);
  sim::Vector dxdt;
  ball->rhs(0.45, impact, ball_context, dxdt);
  EXPECT_EQ(dxdt[0], -3.0);
  ball->rhs(0.45, after, ball_context, dxdt);
  EXPECT_NEAR(dxdt[0], 2.4, 1e-15);
}

INSTANTIATE_TEST_SUITE_P(Fmi, ModelExchange, ::testing::Values(2, 3), [](const auto& param_info) {
  return "fmi" + std::to_string(param_info.param);
});
