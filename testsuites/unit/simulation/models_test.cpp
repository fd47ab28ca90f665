// The shipped models: registry, rhs/Jacobian consistency, exact solutions (Def 4.1).
#include <simverify/simulation/input_signal.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/models/arenstorf.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

namespace sim = simverify::simulation;

namespace {

struct ModelCase {
  std::string name;
  std::string variant;
};

// Every registered model and variant, so a newly added model gets the checks below without
// editing this file (docs/architecture.md, "Add a model").
std::vector<ModelCase> all_models() {
  std::vector<ModelCase> cases;
  for (const auto& name : sim::model_names()) {
    const auto variants = sim::model_variants(name);
    if (variants.empty()) cases.push_back({name, ""});
    for (const auto& variant : variants) cases.push_back({name, variant});
  }
  return cases;
}

// States to probe: the default x0 and two perturbed copies (so the Jacobian is checked off
// the special initial point, e.g. with nonzero velocities).
std::vector<sim::Vector> probe_states(const sim::Model& model) {
  const sim::Vector x0 = model.info().default_x0;
  std::vector<sim::Vector> states{x0};
  sim::Vector a = x0;
  sim::Vector b = x0;
  for (Eigen::Index i = 0; i < x0.size(); ++i) {
    const double scale = std::max(1.0, std::abs(x0[i]));
    a[i] += 0.1 * scale * static_cast<double>(i + 1);
    b[i] -= 0.07 * scale * static_cast<double>(2 * i + 1);
  }
  states.push_back(a);
  states.push_back(b);
  return states;
}

std::string label(const ModelCase& c) {
  return c.name + (c.variant.empty() ? "" : "/" + c.variant);
}

}  // namespace

TEST(Models, AllAreRegisteredWithConsistentInfo) {
  const auto names = sim::model_names();
  for (const char* shipped :
       {"exponential", "harmonic_oscillator", "spring_mass_damper", "vertical_throw", "quarter_car",
        "constrained_pendulum", "van_der_pol", "robertson", "arenstorf", "bouncing_ball"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), shipped), names.end()) << shipped;
  }
  for (const auto& c : all_models()) {
    const auto model = sim::make_model(c.name, c.variant);
    const auto& info = model->info();
    EXPECT_EQ(info.name, c.name);
    EXPECT_FALSE(info.description.empty()) << label(c);
    EXPECT_EQ(info.default_x0.size(), static_cast<Eigen::Index>(info.states.size())) << label(c);
    EXPECT_GT(info.default_tf, 0.0) << label(c);
    // Every shipped model declares the unit of each state and output (the report's axes).
    EXPECT_EQ(info.state_units.size(), info.states.size()) << label(c);
    EXPECT_EQ(info.output_units.size(), info.outputs.size()) << label(c);
    for (const auto& unit : info.state_units) EXPECT_FALSE(unit.empty()) << label(c);
    for (const auto& unit : info.output_units) EXPECT_FALSE(unit.empty()) << label(c);
    EXPECT_FALSE(info.time_unit.empty()) << label(c);
    for (const auto& p : info.parameters) {
      EXPECT_FALSE(p.unit.empty()) << label(c) << " " << p.name;
      EXPECT_FALSE(p.description.empty()) << label(c) << " " << p.name;
    }
    // output() yields one value per declared output at the default point.
    const auto p = model->default_parameters();
    const sim::Context context{p, {}, model->initial_mode(0.0, info.default_x0, {p, {}, 0})};
    sim::Vector y;
    model->output(0.0, info.default_x0, context, y);
    EXPECT_EQ(y.size(), static_cast<Eigen::Index>(info.outputs.size())) << label(c);
  }
}

TEST(Models, VariantsDefaultAndUnknownOnesAreListed) {
  EXPECT_EQ(sim::make_model("constrained_pendulum")->info().variant, "nonlinear");
  EXPECT_EQ(sim::make_model("bouncing_ball")->info().variant, "event");
  EXPECT_EQ(sim::make_model("bouncing_ball", "contact")->info().variant, "contact");
  try {
    (void)sim::make_model("constrained_pendulum", "chaotic");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("nonlinear, linear"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)sim::make_model("quarter_car", "linear"), std::invalid_argument);
}

// Callers pick the error reference from these flags (exact solution or reference run).
TEST(Models, ExactSolutionFlagsMarkTheirAssumptions) {
  for (const auto& c : all_models()) {
    const auto model = sim::make_model(c.name, c.variant);
    const auto& info = model->info();
    const bool needs_constant =
        c.name == "spring_mass_damper" || c.name == "quarter_car" || c.name == "ornstein_uhlenbeck";
    const bool follows_events = (c.name == "constrained_pendulum" && c.variant == "linear") ||
                                (c.name == "bouncing_ball" && c.variant == "event");
    EXPECT_EQ(info.exact_solution_needs_constant_input, needs_constant) << label(c);
    EXPECT_EQ(info.exact_solution_follows_events, follows_events) << label(c);
    if (needs_constant || follows_events) {
      EXPECT_TRUE(model->has_exact_solution()) << label(c);
    }
  }
}

// df/dx against central differences, column by column. The difference quotient errs by
// (delta^2 / 6) |f'''| plus eps |f| / delta; with delta = 1e-6 max(1, |x_j|) both are far
// below the tolerance 1e-6 (1 + |J|_max), scaled so Robertson's 6e7 entries compare
// relatively. Probe states keep the contact ball off y = 0 where its force has a kink.
TEST(Models, JacobiansMatchFiniteDifferences) {
  for (const auto& c : all_models()) {
    const auto model = sim::make_model(c.name, c.variant);
    if (!model->has_jacobian()) continue;
    const auto p = model->default_parameters();
    for (const auto& x : probe_states(*model)) {
      const sim::Context context{p, {0.01, 0.2}, model->initial_mode(0.0, x, {p, {}, 0})};
      sim::Matrix jacobian;
      model->jacobian(0.3, x, context, jacobian);
      ASSERT_EQ(jacobian.rows(), x.size()) << label(c);
      ASSERT_EQ(jacobian.cols(), x.size()) << label(c);
      const double tolerance = 1e-6 * (1.0 + jacobian.cwiseAbs().maxCoeff());
      for (Eigen::Index j = 0; j < x.size(); ++j) {
        const double delta = 1e-6 * std::max(1.0, std::abs(x[j]));
        sim::Vector plus = x;
        sim::Vector minus = x;
        plus[j] += delta;
        minus[j] -= delta;
        sim::Vector f_plus;
        sim::Vector f_minus;
        model->rhs(0.3, plus, context, f_plus);
        model->rhs(0.3, minus, context, f_minus);
        const sim::Vector column = (f_plus - f_minus) / (2.0 * delta);
        EXPECT_LE((column - jacobian.col(j)).cwiseAbs().maxCoeff(), tolerance)
            << label(c) << " column " << j << " at x = " << x.transpose();
      }
    }
  }
}

// Models declaring x'' = g(t, q): positions and velocities partition the states, rhs() gives
// the velocities as the positions' derivatives and acceleration() the velocities' (exactly:
// the same arithmetic), at the probe states. The declared models are the ones documented.
TEST(Models, SecondOrderStructureAgreesWithRhs) {
  std::vector<std::string> declared;
  for (const auto& c : all_models()) {
    const auto model = sim::make_model(c.name, c.variant);
    const auto& structure = model->info().second_order;
    if (!structure) continue;
    declared.push_back(c.name);
    const auto n = static_cast<std::size_t>(model->state_dimension());
    ASSERT_EQ(structure->positions.size(), structure->velocities.size()) << label(c);
    ASSERT_EQ(2 * structure->positions.size(), n) << label(c);
    std::vector<int> seen(n, 0);
    for (auto i : structure->positions) ++seen[static_cast<std::size_t>(i)];
    for (auto i : structure->velocities) ++seen[static_cast<std::size_t>(i)];
    EXPECT_EQ(seen, std::vector<int>(n, 1)) << label(c);
    auto p = model->default_parameters();
    // spring_mass_damper is damped by default: undamped, its acceleration ignores v.
    if (c.name == "spring_mass_damper") p[model->parameter_index("d")] = 0.0;
    ASSERT_FALSE(model->velocity_dependence(p)) << label(c);
    for (const auto& x : probe_states(*model)) {
      const sim::Context context{p, {0.01, 0.2}, 0};
      sim::Vector f, q(static_cast<Eigen::Index>(structure->positions.size())), a;
      model->rhs(0.3, x, context, f);
      for (std::size_t i = 0; i < structure->positions.size(); ++i) {
        q[static_cast<Eigen::Index>(i)] = x[structure->positions[i]];
      }
      model->acceleration(0.3, q, context, a);
      for (std::size_t i = 0; i < structure->positions.size(); ++i) {
        EXPECT_EQ(f[structure->positions[i]], x[structure->velocities[i]]) << label(c);
        EXPECT_NEAR(f[structure->velocities[i]], a[static_cast<Eigen::Index>(i)],
                    1e-14 * (1.0 + std::abs(a[static_cast<Eigen::Index>(i)])))
            << label(c);
      }
    }
  }
  EXPECT_EQ(declared, (std::vector<std::string>{"harmonic_oscillator", "spring_mass_damper",
                                                "spring_pendulum", "vertical_throw"}));
}

// Exact solutions start at x0 and satisfy x' = f(t, x) (central difference in t, delta =
// 1e-5: error (delta^2 / 6) |x'''|, at most ~1e-6 relative for the fastest default mode,
// the quarter car's 74 rad/s wheel hop). Constant inputs only, as the models require.
TEST(Models, ExactSolutionsSatisfyTheirOde) {
  for (const auto& c : all_models()) {
    const auto model = sim::make_model(c.name, c.variant);
    if (!model->has_exact_solution()) continue;
    const auto p = model->default_parameters();
    const sim::Vector x0 = model->info().default_x0;
    const double t0 = 0.25;
    sim::Context context{p, {0.01, 0.0}, model->initial_mode(t0, x0, {p, {}, 0})};
    sim::Vector x;
    model->exact_solution(t0, t0, x0, context, x);
    EXPECT_LE((x - x0).cwiseAbs().maxCoeff(), 1e-14) << label(c);
    const double tf = model->info().default_tf;
    for (int k = 1; k <= 7; ++k) {
      const double t = t0 + tf * (k - 0.5) / 8.0;
      sim::Vector x_plus;
      sim::Vector x_minus;
      sim::Vector x_mid;
      constexpr double kDelta = 1e-5;
      model->exact_solution(t + kDelta, t0, x0, context, x_plus);
      model->exact_solution(t - kDelta, t0, x0, context, x_minus);
      model->exact_solution(t, t0, x0, context, x_mid);
      // Hybrid models: the mode in force at t (events may have switched it since t0).
      context.mode = model->initial_mode(t, x_mid, context);
      sim::Vector f;
      model->rhs(t, x_mid, context, f);
      const sim::Vector derivative = (x_plus - x_minus) / (2.0 * kDelta);
      EXPECT_LE((derivative - f).cwiseAbs().maxCoeff(), 1e-6 * (1.0 + f.cwiseAbs().maxCoeff()))
          << label(c) << " at t = " << t;
    }
  }
}

// Every damping regime of m y'' + d y' + k y = F: under-, critically and over-damped, near
// critical, and the spring-less case (matrix-exponential branch), each with residual and
// initial-value checks as above.
TEST(SpringMassDamper, ExactSolutionInEveryDampingRegime) {
  const auto model = sim::make_model("spring_mass_damper");
  const std::vector<std::vector<double>> cases{// m, d, k: d^2 - 4 m k <, =, > 0
                                               {1.0, 2.0, 100.0},
                                               {2.0, 8.0, 8.0},
                                               {1.0, 50.0, 100.0},
                                               {1.0, 20.0 + 1e-9, 100.0},
                                               {1.0, 3.0, 0.0}};
  const sim::Vector x0{{0.1, -0.4}};
  for (const auto& p : cases) {
    const sim::Context context{p, {2.5, 0.0}, 0};
    sim::Vector x;
    model->exact_solution(1.0, 1.0, x0, context, x);
    EXPECT_LE((x - x0).cwiseAbs().maxCoeff(), 1e-15);
    for (const double t : {1.3, 2.0, 4.5}) {
      sim::Vector x_plus;
      sim::Vector x_minus;
      model->exact_solution(t + 1e-5, 1.0, x0, context, x_plus);
      model->exact_solution(t - 1e-5, 1.0, x0, context, x_minus);
      model->exact_solution(t, 1.0, x0, context, x);
      sim::Vector f;
      model->rhs(t, x, context, f);
      EXPECT_LE(((x_plus - x_minus) / 2e-5 - f).cwiseAbs().maxCoeff(), 1e-7)
          << "d = " << p[1] << " k = " << p[2] << " t = " << t;
    }
  }
  // Critical damping has the closed form y = (y0 + (v0 + a y0) t) e^{-a t}, a = d / 2m,
  // around the rest position F / k.
  const std::vector<double> critical{2.0, 8.0, 8.0};
  const sim::Context context{critical, {2.5, 0.0}, 0};
  sim::Vector x;
  model->exact_solution(1.5, 0.0, x0, context, x);
  const double rest = 2.5 / 8.0;
  const double z0 = 0.1 - rest;
  EXPECT_NEAR(x[0], rest + (z0 + (-0.4 + 2.0 * z0) * 1.5) * std::exp(-3.0), 1e-15);
}

// The continuous-models slides' table (ch. 4.2): dropped from 100 m, y(0.1) = 100 - 9.81 / 2 0.01
// = 99.95095 m.
TEST(VerticalThrow, MatchesTheSlidesAndDragLimit) {
  const auto model = sim::make_model("vertical_throw");
  std::vector<double> p = model->default_parameters();
  sim::Vector x;
  model->exact_solution(0.1, 0.0, model->info().default_x0, {p, {}, 0}, x);
  EXPECT_NEAR(x[0], 99.95095, 1e-12);
  EXPECT_NEAR(x[1], -0.981, 1e-12);
  // With drag c the velocity tends to the terminal -g / c; tiny c reproduces c = 0 smoothly
  // (the series branch), a moderate c the exponential one.
  p[1] = 0.5;
  model->exact_solution(60.0, 0.0, sim::Vector{{0.0, 10.0}}, {p, {}, 0}, x);
  EXPECT_NEAR(x[1], -9.81 / 0.5, 1e-9);
  p[1] = 1e-9;
  sim::Vector no_drag;
  model->exact_solution(3.0, 0.0, sim::Vector{{1.0, 20.0}}, {p, {}, 0}, x);
  p[1] = 0.0;
  model->exact_solution(3.0, 0.0, sim::Vector{{1.0, 20.0}}, {p, {}, 0}, no_drag);
  EXPECT_NEAR(x[0], no_drag[0], 1e-6);  // first-order drag effect ~ c v0 t^2 ~ 2e-7
  // The ground event: falling through y = 0, terminal.
  ASSERT_EQ(model->info().events.size(), 1u);
  EXPECT_EQ(model->info().events[0].direction, sim::EventDirection::falling);
  EXPECT_TRUE(model->info().events[0].terminal);
  sim::Vector state{{0.0, -3.0}};
  sim::Context context{p, {}, 0};
  EXPECT_EQ(model->event_value(0, 1.0, sim::Vector{{-0.5, -3.0}}, context), -0.5);
  EXPECT_EQ(model->on_event(0, 1.0, state, context), sim::EventAction::terminate);
}

TEST(HarmonicOscillator, ConservesEnergyExactly) {
  const auto model = sim::make_model("harmonic_oscillator");
  const auto p = model->default_parameters();
  const double omega = p[0];
  const sim::Vector x0{{0.3, -1.2}};
  sim::Vector x;
  const auto energy = [omega](const sim::Vector& s) {
    return 0.5 * s[1] * s[1] + 0.5 * omega * omega * s[0] * s[0];
  };
  for (const double t : {0.1, 1.7, 33.3}) {
    model->exact_solution(t, 0.0, x0, {p, {}, 0}, x);
    EXPECT_NEAR(energy(x), energy(x0), 1e-12 * energy(x0));
  }
  // After whole periods 2 pi / omega the state returns.
  model->exact_solution(3.0 * 2.0 * std::numbers::pi / omega, 0.0, x0, {p, {}, 0}, x);
  EXPECT_LE((x - x0).cwiseAbs().maxCoeff(), 1e-13);
}

// Bounce times from the closed form: first impact at sqrt(2 h / g), then flights of
// 2 e^n w / g with impact speed w = sqrt(2 g h); at rest after the Zeno time.
TEST(BouncingBall, ExactSolutionBouncesAndComesToRest) {
  const auto model = sim::make_model("bouncing_ball");
  const auto p = model->default_parameters();
  const double g = 9.81;
  const double e = 0.8;
  const double w = std::sqrt(2.0 * g);
  const double first = std::sqrt(2.0 / g);
  const sim::Vector x0{{1.0, 0.0}};
  sim::Vector x;
  // Just after the second impact: y = 0, v = e^2 w.
  const double second = first + 2.0 * e * w / g;
  model->exact_solution(second, 0.0, x0, {p, {}, 0}, x);
  EXPECT_NEAR(x[0], 0.0, 1e-12);
  EXPECT_NEAR(std::abs(x[1]), e * e * w, 1e-9);
  // Apex of the first rebound: height e^2 h.
  model->exact_solution(first + e * w / g, 0.0, x0, {p, {}, 0}, x);
  EXPECT_NEAR(x[0], e * e, 1e-12);
  EXPECT_NEAR(x[1], 0.0, 1e-12);
  const double zeno = first * (1.0 + 2.0 * e / (1.0 - e));
  model->exact_solution(zeno + 0.5, 0.0, x0, {p, {}, 0}, x);
  EXPECT_EQ(x[0], 0.0);
  EXPECT_EQ(x[1], 0.0);
  // The event resets v := -e v.
  sim::Vector state{{0.0, -4.0}};
  sim::Context context{p, {}, 0};
  EXPECT_EQ(model->on_event(0, 1.0, state, context), sim::EventAction::resume);
  EXPECT_DOUBLE_EQ(state[1], 3.2);
}

// The contact variant: free flight above ground; below, the spring-damper pushes back.
TEST(BouncingBall, ContactForceActsOnlyWhenPenetrating) {
  const auto model = sim::make_model("bouncing_ball", "contact");
  const auto p = model->default_parameters();
  EXPECT_TRUE(model->info().events.empty());
  EXPECT_FALSE(model->has_exact_solution());
  sim::Vector f;
  model->rhs(0.0, sim::Vector{{0.2, -1.0}}, {p, {}, 0}, f);
  EXPECT_DOUBLE_EQ(f[1], -9.81);
  model->rhs(0.0, sim::Vector{{-1e-3, -1.0}}, {p, {}, 0}, f);
  EXPECT_DOUBLE_EQ(f[1], -9.81 + (1e5 * 1e-3 + 14.17 * 1.0) / 0.1);
}

// Robertson conserves y1 + y2 + y3: the rhs components sum to zero.
TEST(Robertson, RhsConservesMass) {
  const auto model = sim::make_model("robertson");
  const auto p = model->default_parameters();
  sim::Vector f;
  model->rhs(0.0, sim::Vector{{0.7, 3e-5, 0.3}}, {p, {}, 0}, f);
  EXPECT_NEAR(f.sum(), 0.0, 1e-15 * f.cwiseAbs().maxCoeff());
  EXPECT_GT(f.cwiseAbs().maxCoeff(), 0.05);  // not trivially zero: k3 y2 y3 = 0.09
}

// The Arenstorf orbit closes after kArenstorfPeriod (Hairer, Norsett & Wanner, Sec II.0).
// An adaptive run at rtol 1e-10 reproduces x0 to about 1e-6: the orbit's close approach to
// the earth amplifies local errors by several orders of magnitude.
TEST(Arenstorf, ReturnsToItsStartAfterOnePeriod) {
  const auto model = sim::make_model("arenstorf");
  EXPECT_DOUBLE_EQ(model->info().default_tf, sim::models::kArenstorfPeriod);
  sim::SimulatorSettings settings;
  settings.method = "ode45";
  settings.tf = sim::models::kArenstorfPeriod;
  settings.stepper.rtol = 1e-11;
  settings.stepper.atol = {1e-13};
  settings.record_trajectory = false;
  const auto result = sim::Simulator(*model, settings).run();
  const sim::Vector x0 = model->info().default_x0;
  EXPECT_LE((result.x_end - x0).head(2).cwiseAbs().maxCoeff(), 1e-5) << result.x_end.transpose();
}
