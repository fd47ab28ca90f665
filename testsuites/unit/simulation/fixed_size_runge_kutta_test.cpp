// The fixed-size path of the explicit Runge-Kutta step (fixed_size_runge_kutta.hpp): the same
// results as the generic path, bitwise, for every shipped explicit tableau and every size it
// takes; chosen for up to kMaxFixedSizeStates states only; and, called directly on
// std::array with a lambda, the classical order against the exact solution. The fixed-size
// adaptive stepper (methods/fixed_size_adaptive_stepper.hpp, f inlined into the whole step)
// gives bitwise the generic adaptive stepper's steps, states and dense output, also with f a
// plain function (fixed_size_stepper.hpp, as for FMUs), and the Simulator takes it for a
// built-in model without changing a result.
#include <simverify/simulation/fixed_size_runge_kutta.hpp>
#include <simverify/simulation/fixed_size_stepper.hpp>
#include <simverify/simulation/fixed_size_tableaux.hpp>
#include <simverify/simulation/input_signal.hpp>
#include <simverify/simulation/integrate.hpp>
#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>
#include <simverify/simulation/tableaux.hpp>
#include "explicit_runge_kutta.hpp"
#include "methods/fixed_size_adaptive_stepper.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

namespace sim = simverify::simulation;

namespace {

std::vector<const sim::ButcherTableau*> explicit_tableaux() {
  namespace t = sim::tableaux;
  return {&t::euler(),
          &t::heun(),
          &t::bogacki_shampine3(),
          &t::rk4(),
          &t::dormand_prince5(),
          &t::prince_dormand87(),
          &t::rk43(),
          &t::bogacki_shampine23(),
          &t::dormand_prince54()};
}

// A nonlinear, coupled, time-dependent system of any size, so every stage sum, node and
// component matters: x_i' = sin(x_{i+1}) - (0.3 + 0.1 i) x_i + cos(t) x_0 (indices mod n).
// On any state type with size() and operator[] (Vector, std::array).
template <class State>
void coupled_rhs(double t, const State& x, State& dx) {
  const auto n = static_cast<std::size_t>(x.size());
  for (std::size_t i = 0; i < n; ++i) {
    dx[i] =
        std::sin(x[(i + 1) % n]) - (0.3 + 0.1 * static_cast<double>(i)) * x[i] + std::cos(t) * x[0];
  }
}

sim::OdeSystem coupled(Eigen::Index n) {
  return {n, [](double t, const sim::Vector& x, sim::Vector& dx) { coupled_rhs(t, x, dx); }};
}

struct Steps {
  std::vector<sim::Vector> states;
  std::vector<sim::Vector> errors;
};

// 25 steps of h = 0.05 from x0_i = 1 / (i + 1), each step from the last one's end, feeding the
// previous last stage as k_1 for FSAL tableaux as the adaptive stepper does.
Steps march(const sim::ButcherTableau& tableau, Eigen::Index n, bool fixed) {
  sim::ExplicitRungeKutta rk(tableau);
  if (!fixed) rk.disable_fixed_size();
  rk.resize(n);
  EXPECT_EQ(rk.fixed_size(), fixed) << tableau.name << " n = " << n;
  const sim::OdeSystem system = coupled(n);
  sim::Vector x(n);
  for (Eigen::Index i = 0; i < n; ++i) x(i) = 1.0 / static_cast<double>(i + 1);
  sim::Vector x_next(n);
  sim::Vector error(n);
  sim::Vector first(n);
  Steps run;
  double t = 0.0;
  for (int step = 0; step < 25; ++step) {
    const bool reuse = tableau.is_fsal() && step > 0;
    if (tableau.is_embedded()) {
      rk.step_with_error(system, t, x, 0.05, x_next, error, reuse ? &first : nullptr);
      run.errors.push_back(error);
    } else {
      rk.step(system, t, x, 0.05, x_next);
    }
    first = rk.stages().back();
    run.states.push_back(x_next);
    x = x_next;
    t += 0.05;
  }
  return run;
}

TEST(FixedSizeRungeKutta, GivesBitwiseTheGenericResultsForEveryExplicitTableau) {
  // Same terms in the same order (the fixed path adds the zero coefficients' terms, which
  // changes no finite sum), so the results agree to the last bit.
  for (const sim::ButcherTableau* tableau : explicit_tableaux()) {
    for (const Eigen::Index n : {1, 2, 4, 7, 16}) {
      const Steps generic = march(*tableau, n, false);
      const Steps fixed = march(*tableau, n, true);
      for (std::size_t k = 0; k < generic.states.size(); ++k) {
        for (Eigen::Index i = 0; i < n; ++i) {
          ASSERT_EQ(fixed.states[k](i), generic.states[k](i))
              << tableau->name << " n = " << n << " step " << k << " component " << i;
        }
      }
      ASSERT_EQ(fixed.errors.size(), generic.errors.size());
      for (std::size_t k = 0; k < generic.errors.size(); ++k) {
        for (Eigen::Index i = 0; i < n; ++i) {
          ASSERT_EQ(fixed.errors[k](i), generic.errors[k](i))
              << tableau->name << " error, n = " << n << " step " << k << " component " << i;
        }
      }
    }
  }
}

TEST(FixedSizeRungeKutta, IsChosenUpToSixteenStatesOnly) {
  sim::ExplicitRungeKutta rk(sim::tableaux::dormand_prince54());
  rk.resize(sim::kMaxFixedSizeStates);
  EXPECT_TRUE(rk.fixed_size());
  rk.resize(sim::kMaxFixedSizeStates + 1);
  EXPECT_FALSE(rk.fixed_size());
}

// The constexpr tableaux: FSAL found as ButcherTableau::is_fsal finds it, and the terms the
// step emits are exactly the non-zero coefficients (Dormand-Prince: a_72 = b_2 = b_7 = 0,
// so the FSAL row and b - b_hat lose the k_2 term, the 5th-order b is never summed).
namespace ft = sim::fixed_size_tableaux;
using DormandPrinceTerms = sim::fixed_size_detail::NonZeroTerms<ft::kDormandPrince54>;
static_assert(ft::kDormandPrince54.fsal && ft::kBogackiShampine23.fsal);
static_assert(!ft::kRk43.fsal);  // Zonneveld's 4(3): the fifth stage is at c = 3/4
static_assert(DormandPrinceTerms::a_row(1) == 0b1 && DormandPrinceTerms::a_row(5) == 0b11111);
static_assert(DormandPrinceTerms::a_row(6) == 0b111101 && DormandPrinceTerms::e(7) == 0b1111101);
static_assert(sim::fixed_size_detail::NonZeroTerms<ft::kRk43>::a_row(3) == 0b100);

TEST(FixedSizeRungeKutta, ConstexprTableauxAreTheRegistryTableaux) {
  // tableaux.cpp builds these ButcherTableaux from the constexpr data; the copy back must
  // give the same coefficients bitwise, or make_fixed_size_stepper would find no stepper.
  EXPECT_TRUE(sim::FixedSizeTableau(sim::tableaux::dormand_prince54()) == ft::kDormandPrince54);
  EXPECT_TRUE(sim::FixedSizeTableau(sim::tableaux::rk43()) == ft::kRk43);
  EXPECT_TRUE(sim::FixedSizeTableau(sim::tableaux::bogacki_shampine23()) == ft::kBogackiShampine23);
  EXPECT_FALSE(sim::FixedSizeTableau(sim::tableaux::rk4()) == ft::kRk43);
  EXPECT_EQ(sim::tableaux::dormand_prince54().is_fsal(), ft::kDormandPrince54.fsal);
}

TEST(FixedSizeRungeKutta, ConstexprTableauGivesBitwiseTheRunTimeTableausStep) {
  // The same Dormand-Prince step, tableau as template argument (zeros skipped) and as run-time
  // data (zeros multiplied): the skipped terms are h 0 k_j = +-0, which change no sum here.
  using State = std::array<double, 3>;
  const auto f = [](double t, const State& x, State& dx) { coupled_rhs(t, x, dx); };
  const sim::FixedSizeTableau data(sim::tableaux::dormand_prince54());
  State x{1.0, 0.5, 1.0 / 3};
  for (int step = 0; step < 10; ++step) {
    std::array<State, 7> k1{}, k2{};
    State stage{}, next1{}, next2{}, error1{}, error2{};
    sim::fixed_size_step<3, 7>(data, f, 0.1 * step, x, 0.1, k1.data(), stage, next1, &error1);
    sim::fixed_size_step<3, ft::kDormandPrince54>(f, 0.1 * step, x, 0.1, k2.data(), stage, next2,
                                                  &error2);
    ASSERT_EQ(next1, next2) << "step " << step;
    ASSERT_EQ(error1, error2) << "step " << step;
    ASSERT_EQ(k1, k2) << "step " << step;
    x = next1;
  }
}

// x'' = -x as x = (q, p) on std::array with a lambda, one period 2 pi with rk4: the exact
// solution is (cos t, -sin t).
double oscillator_error(int steps) {
  using State = std::array<double, 2>;
  const sim::FixedSizeTableau tableau(sim::tableaux::rk4());
  const auto f = [](double /*t*/, const State& x, State& dx) {
    dx[0] = x[1];
    dx[1] = -x[0];
  };
  const double h = 2.0 * std::numbers::pi / steps;
  State x{1.0, 0.0};
  State x_next{};
  State stage{};
  std::array<State, 4> k{};
  for (int j = 0; j < steps; ++j) {
    sim::fixed_size_step<2, 4>(tableau, f, j * h, x, h, k.data(), stage, x_next,
                               static_cast<State*>(nullptr));
    x = x_next;
  }
  return std::max(std::abs(x[0] - 1.0), std::abs(x[1]));
}

TEST(FixedSizeRungeKutta, DirectCallOnStdArrayHasOrderFourAgainstTheExactSolution) {
  // RK4 on the oscillator errs by h^5 / 120 per step in phase (the stability function
  // 1 + z + z^2/2 + z^3/6 + z^4/24 at z = i h against e^(i h)), so over one period with
  // h = 2 pi / 200 about 2 pi h^4 / 120 = 1.3e-7; twice the steps cut it 16-fold.
  const double coarse = oscillator_error(200);
  const double fine = oscillator_error(400);
  EXPECT_LT(coarse, 2e-7);
  EXPECT_GT(coarse, 5e-8);
  EXPECT_NEAR(std::log2(coarse / fine), 4.0, 0.05);
}

// One run of the adaptive stepper: every accepted step's end, its state and the dense output
// at two interior points, the statistics and the f evaluations.
struct FixedOrGenericRun {
  std::vector<double> times;
  std::vector<sim::Vector> states;
  std::vector<sim::Vector> dense;
  long accepted = 0, rejected = 0;
  std::int64_t evaluations = 0;
};

// Same step times, counts, states and dense output, bit for bit (`b` the fixed-size run).
void expect_bitwise_equal_runs(const FixedOrGenericRun& b, const FixedOrGenericRun& a,
                               const std::string& what) {
  ASSERT_EQ(b.times, a.times) << what;
  EXPECT_EQ(b.accepted, a.accepted) << what;
  EXPECT_EQ(b.rejected, a.rejected) << what;
  EXPECT_EQ(b.evaluations, a.evaluations) << what;
  ASSERT_EQ(b.states.size(), a.states.size()) << what;
  for (std::size_t k = 0; k < a.states.size(); ++k) {
    ASSERT_TRUE(b.states[k] == a.states[k]) << what << " state " << k;
  }
  ASSERT_EQ(b.dense.size(), a.dense.size()) << what;
  for (std::size_t k = 0; k < a.dense.size(); ++k) {
    ASSERT_TRUE(b.dense[k] == a.dense[k]) << what << " dense output " << k;
  }
}

FixedOrGenericRun run_fixed_or_generic(sim::Stepper& stepper, Eigen::Index n, double h0, double tol,
                                       double step_hold = 0.0) {
  const sim::OdeSystem system = coupled(n);
  sim::Vector x0(n);
  for (Eigen::Index i = 0; i < n; ++i) x0(i) = 1.0 / static_cast<double>(i + 1);
  sim::StepperSettings settings;
  settings.rtol = tol;
  settings.atol = {tol};
  settings.step_hold = step_hold;
  FixedOrGenericRun run;
  sim::Vector out(n);
  const auto r = sim::integrate(stepper, system, 0.0, x0, 3.0, h0, settings,
                                [&](double t_old, double t, const sim::Vector& x) {
                                  run.times.push_back(t);
                                  run.states.push_back(x);
                                  for (const double theta : {0.3, 0.8}) {
                                    stepper.interpolate(t_old + theta * (t - t_old), out);
                                    run.dense.push_back(out);
                                  }
                                });
  run.states.push_back(r.x);
  run.accepted = stepper.statistics().accepted_steps;
  run.rejected = stepper.statistics().rejected_steps;
  run.evaluations = system.rhs_evaluations();
  return run;
}

template <int N>
void expect_fixed_size_adaptive_is_bitwise_generic(const std::string& method) {
  using State = std::array<double, N>;
  // h0 = 0: the starting step heuristic; h0 = 1: a first step far too large, so rejected
  // steps (and the retry reusing k_1) are compared too.
  for (const double h0 : {0.0, 1.0}) {
    for (const double tol : {1e-5, 1e-9}) {
      const auto generic = sim::make_stepper(method);
      const auto fixed = sim::detail::make_fixed_size_stepper<N>(
          method, [](double t, const State& x, State& dx) { coupled_rhs(t, x, dx); });
      ASSERT_NE(fixed, nullptr) << method;
      const FixedOrGenericRun a = run_fixed_or_generic(*generic, N, h0, tol);
      const FixedOrGenericRun b = run_fixed_or_generic(*fixed, N, h0, tol);
      const std::string what = method + " n = " + std::to_string(N) +
                               " h0 = " + std::to_string(h0) + " tol " + std::to_string(tol);
      if (h0 > 0.0) {
        EXPECT_GT(a.rejected, 0) << what;  // the reject path ran
      }
      expect_bitwise_equal_runs(b, a, what);
    }
  }
}

TEST(FixedSizeAdaptiveStepper, GivesBitwiseTheGenericStepsStatesAndDenseOutput) {
  // ode45/dopri54: Dormand-Prince with Shampine's extension and PI control; ode23: FSAL with
  // Hermite dense output; rk43: not FSAL (f at the step's end evaluated on accept).
  for (const std::string method : {"ode45", "dopri54", "ode23", "rk43"}) {
    expect_fixed_size_adaptive_is_bitwise_generic<1>(method);
    expect_fixed_size_adaptive_is_bitwise_generic<4>(method);
    expect_fixed_size_adaptive_is_bitwise_generic<16>(method);
  }
}

// Steps of exactly the size of the step before: what StepperSettings::step_hold keeps.
int held_steps(const std::vector<double>& times) {
  int held = 0;
  for (std::size_t k = 2; k < times.size(); ++k) {
    held += times[k] - times[k - 1] == times[k - 1] - times[k - 2] ? 1 : 0;
  }
  return held;
}

TEST(FixedSizeAdaptiveStepper, WithAStepHoldGivesBitwiseTheGenericStepsAndHoldsSteps) {
  using State = std::array<double, 4>;
  for (const std::string method : {"ode45", "rk43"}) {
    for (const double h0 : {0.0, 1.0}) {
      const auto generic = sim::make_stepper(method);
      const auto fixed = sim::detail::make_fixed_size_stepper<4>(
          method, [](double t, const State& x, State& dx) { coupled_rhs(t, x, dx); });
      const FixedOrGenericRun a = run_fixed_or_generic(*generic, 4, h0, 1e-8, 0.5);
      const FixedOrGenericRun b = run_fixed_or_generic(*fixed, 4, h0, 1e-8, 0.5);
      const std::string what = method + " h0 = " + std::to_string(h0) + " with step_hold 0.5";
      expect_bitwise_equal_runs(b, a, what);
      // Without the hold the PI controller changes h after every step (equal sizes only by
      // chance, and t's roundings make even those rare); with it whole runs of steps keep h.
      const auto plain = sim::make_stepper(method);
      const FixedOrGenericRun c = run_fixed_or_generic(*plain, 4, h0, 1e-8);
      EXPECT_GT(held_steps(a.times), 5 * held_steps(c.times) + 5) << what;
    }
  }
}

// The hold keeps the error test: every accepted step still has err <= 1. On x' = -x (contracting,
// so local errors do not grow, and |x| <= 1) the global error at t = 3 stays below the sum of
// the local bounds, (number of steps) x tol: below 1000 tol for fewer than 1000 steps. The
// explicit pairs, the Rosenbrock pair ode23s and the implicit Runge-Kutta ode23t.
TEST(FixedSizeAdaptiveStepper, WithAStepHoldStaysWithinTheToleranceOfTheExactSolution) {
  const sim::OdeSystem decay(1, [](double, const sim::Vector& x, sim::Vector& dx) { dx = -x; });
  const std::pair<std::string, double> cases[] = {
      {"ode45", 1e-10}, {"ode23", 1e-8}, {"ode87", 1e-10}, {"ode23s", 1e-6}, {"ode23t", 1e-6}};
  for (const auto& [method, tol] : cases) {
    const auto stepper = sim::make_stepper(method);
    sim::StepperSettings settings;
    settings.rtol = tol;
    settings.atol = {tol};
    settings.step_hold = 0.5;
    const auto r = sim::integrate(*stepper, decay, 0.0, sim::Vector::Ones(1), 3.0, 0.0, settings);
    ASSERT_LT(stepper->statistics().accepted_steps, 1000) << method;
    EXPECT_NEAR(r.x(0), std::exp(-3.0), 1000 * tol) << method;
  }
}

TEST(FixedSizeAdaptiveStepper, ExistsForTheAdaptivePairsWithoutSubstepsOnly) {
  using State = std::array<double, 2>;
  const auto f = [](double t, const State& x, State& dx) { coupled_rhs(t, x, dx); };
  EXPECT_NE(sim::detail::make_fixed_size_stepper<2>("ode45", f), nullptr);
  // ode87's dense output takes substeps; fixed-step and implicit methods have no such path.
  for (const std::string method : {"ode87", "ode4", "ode15s", "no such method"}) {
    EXPECT_EQ(sim::detail::make_fixed_size_stepper<2>(method, f), nullptr) << method;
  }
  const auto stepper = sim::detail::make_fixed_size_stepper<2>("ode45", f);
  const sim::OdeSystem three(3, [](double, const sim::Vector&, sim::Vector&) {});
  EXPECT_THROW(stepper->initialize(three, 0.0, sim::Vector::Zero(3), {}), std::invalid_argument);
}

TEST(FixedSizeAdaptiveStepper, SimulatorTakesItForABuiltInModelWithTheSameResults) {
  // The Simulator takes the fixed-size path for runs without an input signal; arenstorf
  // reads no input, so a run with a zero input (the generic path) must give the same
  // numbers: steps, statistics and the dense output at the output times, bitwise.
  const auto model = sim::make_model("arenstorf");
  sim::Context context;
  const std::vector<double> p = model->default_parameters();
  context.p = p;
  EXPECT_NE(model->fixed_size_stepper("ode45", context), nullptr);
  EXPECT_EQ(model->fixed_size_stepper("ode87", context), nullptr);
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.tf = model->info().default_tf;
  s.stepper.rtol = 1e-9;
  s.stepper.atol = {1e-9};
  for (int i = 1; i <= 50; ++i) s.output_times.push_back(s.tf * i / 50.0);
  const sim::SimulatorResult fixed = sim::Simulator(*model, s).run();
  s.input = sim::constant_input(0.0);
  const sim::SimulatorResult generic = sim::Simulator(*model, s).run();
  EXPECT_TRUE(fixed.x_end == generic.x_end);
  EXPECT_EQ(fixed.statistics.steps, generic.statistics.steps);
  EXPECT_EQ(fixed.statistics.rejected_steps, generic.statistics.rejected_steps);
  EXPECT_EQ(fixed.statistics.rhs_evaluations, generic.statistics.rhs_evaluations);
  ASSERT_EQ(fixed.trajectory.states.size(), generic.trajectory.states.size());
  for (std::size_t k = 0; k < fixed.trajectory.states.size(); ++k) {
    ASSERT_TRUE(fixed.trajectory.states[k] == generic.trajectory.states[k]) << "output " << k;
  }
  // The periodic orbit returns to its start (HNW I, Sec. II.0); at rtol 1e-9 ode45 ends
  // within 1e-4 of it (the orbit's sensitivity amplifies the local errors ~1e4-fold).
  EXPECT_LT((fixed.x_end - model->info().default_x0).lpNorm<Eigen::Infinity>(), 1e-4);
}

TEST(FixedSizeAdaptiveStepper, EveryBuiltInModelThatOptsInGivesTheGenericResults) {
  // Every registered model (and variant) with a fixed-size stepper: ode23 and ode45 over
  // [t0, min(tf, 1)] through the Simulator, the fixed-size path against the generic one (a
  // zero input: those models read u only as a value, which is then 0 as without an input).
  int opted_in = 0;
  for (const std::string& name : sim::model_names()) {
    std::vector<std::string> variants = sim::model_variants(name);
    if (variants.empty()) variants.emplace_back();
    for (const std::string& variant : variants) {
      const auto model = sim::make_model(name, variant);
      sim::Context context;
      const std::vector<double> p = model->default_parameters();
      context.p = p;
      if (model->fixed_size_stepper("ode45", context) == nullptr) continue;
      ++opted_in;
      for (const std::string method : {"ode23", "ode45"}) {
        sim::SimulatorSettings s;
        s.method = method;
        s.tf = std::min(model->info().default_tf, 1.0);
        s.stepper.rtol = 1e-7;
        s.stepper.atol = {1e-9};
        const sim::SimulatorResult fixed = sim::Simulator(*model, s).run();
        s.input = sim::constant_input(0.0);
        const sim::SimulatorResult generic = sim::Simulator(*model, s).run();
        const std::string what = name + "/" + variant + " " + method;
        EXPECT_TRUE(fixed.x_end == generic.x_end) << what;
        EXPECT_EQ(fixed.statistics.steps, generic.statistics.steps) << what;
        EXPECT_EQ(fixed.statistics.rhs_evaluations, generic.statistics.rhs_evaluations) << what;
        ASSERT_EQ(fixed.trajectory.states.size(), generic.trajectory.states.size()) << what;
        for (std::size_t k = 0; k < fixed.trajectory.states.size(); ++k) {
          ASSERT_TRUE(fixed.trajectory.states[k] == generic.trajectory.states[k]) << what;
        }
      }
    }
  }
  // arenstorf, harmonic_oscillator, quarter_car, robertson, spring_mass_damper, van_der_pol,
  // vertical_throw (some with variants).
  EXPECT_GE(opted_in, 7);
}

// f as a plain function with its object (a model whose f the compiler cannot see, an FMU):
// the same stepper, so bitwise the generic results, for every state count it takes; the
// function is handed its object and the run's x.
template <int N>
void expect_plain_fixed_size_is_bitwise_generic(const std::string& method) {
  struct Counted {
    long calls = 0;
    static void f(const void* self, double t, const double* x, double* dxdt) {
      ++const_cast<Counted*>(static_cast<const Counted*>(self))->calls;
      std::array<double, N> in{};
      std::array<double, N> out{};
      std::copy(x, x + N, in.begin());
      coupled_rhs(t, in, out);
      std::copy(out.begin(), out.end(), dxdt);
    }
  };
  Counted counted;
  const auto generic = sim::make_stepper(method);
  const auto plain = sim::make_fixed_size_stepper(method, N, {&Counted::f, &counted});
  ASSERT_NE(plain, nullptr) << method << " n = " << N;
  const FixedOrGenericRun a = run_fixed_or_generic(*generic, N, 1.0, 1e-9);
  const FixedOrGenericRun b = run_fixed_or_generic(*plain, N, 1.0, 1e-9);
  const std::string what = method + " n = " + std::to_string(N);
  EXPECT_GT(a.rejected, 0) << what;
  EXPECT_EQ(counted.calls, b.evaluations) << what;
  expect_bitwise_equal_runs(b, a, what);
}

template <std::size_t... I>
void expect_plain_fixed_size_is_bitwise_generic(const std::string& method,
                                                std::index_sequence<I...> /*0..max-1*/) {
  (expect_plain_fixed_size_is_bitwise_generic<static_cast<int>(I) + 1>(method), ...);
}

TEST(FixedSizeAdaptiveStepper, WithAPlainFunctionGivesBitwiseTheGenericResults) {
  // Every state count the path takes: each is its own instantiation of the stepper.
  for (const std::string method : {"ode45", "ode23", "rk43"}) {
    expect_plain_fixed_size_is_bitwise_generic(
        method, std::make_index_sequence<sim::kMaxPlainFixedSizeStates>{});
  }
}

TEST(FixedSizeAdaptiveStepper, WithAPlainFunctionExistsForItsStateCountsAndPairsOnly) {
  const sim::PlainRhs f{[](const void*, double, const double*, double*) {}, nullptr};
  for (int n = 1; n <= sim::kMaxPlainFixedSizeStates; ++n) {
    EXPECT_NE(sim::make_fixed_size_stepper("ode45", n, f), nullptr) << n;
  }
  EXPECT_EQ(sim::make_fixed_size_stepper("ode45", 0, f), nullptr);
  EXPECT_EQ(sim::make_fixed_size_stepper("ode45", sim::kMaxPlainFixedSizeStates + 1, f), nullptr);
  EXPECT_EQ(sim::make_fixed_size_stepper("ode45", 2, {}), nullptr);  // no function
  for (const std::string method : {"ode87", "ode4", "ode15s", "no such method"}) {
    EXPECT_EQ(sim::make_fixed_size_stepper(method, 2, f), nullptr) << method;
  }
}

// The fixed-size stepper's own loop (its advance() override, step_loop.hpp's march with the
// step inlined) against the base class's loop over step() on the same stepper type.
struct LoopEnd {
  double t = 0.0, h = 0.0;
  sim::Vector x;
  long accepted = 0, rejected = 0;
  std::int64_t evaluations = 0;
};

// ode45's fixed-size stepper of the coupled system of 4 states, initialized at (0, 0.5...)
// for rtol = atol = 1e-8.
std::unique_ptr<sim::Stepper> coupled_ode45(const sim::OdeSystem& system) {
  using State = std::array<double, 4>;
  auto stepper = sim::detail::make_fixed_size_stepper<4>(
      "ode45", [](double t, const State& x, State& dx) { coupled_rhs(t, x, dx); });
  sim::StepperSettings settings;
  settings.rtol = settings.atol[0] = 1e-8;
  stepper->initialize(system, 0.0, sim::Vector::Constant(4, 0.5), settings);
  return stepper;
}

LoopEnd run_loop(bool own_loop, double t_end, double h0) {
  const sim::OdeSystem system = coupled(4);
  const auto stepper = coupled_ode45(system);
  LoopEnd end{.t = 0.0, .h = h0, .x = sim::Vector::Constant(4, 0.5)};
  sim::Vector x_new(4);
  if (own_loop) {
    sim::advance(*stepper, system, end.t, end.x, t_end, end.h, x_new);
  } else {
    stepper->sim::Stepper::advance(system, end.t, end.x, t_end, end.h, x_new, {}, {});
  }
  end.accepted = stepper->statistics().accepted_steps;
  end.rejected = stepper->statistics().rejected_steps;
  end.evaluations = system.rhs_evaluations();
  return end;
}

TEST(FixedSizeAdaptiveStepper, OwnLoopGivesBitwiseTheLoopOverStep) {
  // h0 = 1 is far too large: rejections (and the retry that reuses k_1) run in both loops.
  for (const double h0 : {1e-3, 1.0}) {
    const LoopEnd own = run_loop(true, 2.0, h0);
    const LoopEnd base = run_loop(false, 2.0, h0);
    EXPECT_EQ(own.t, 2.0);
    EXPECT_EQ(own.t, base.t);
    EXPECT_EQ(own.h, base.h);
    EXPECT_TRUE(own.x == base.x) << own.x.transpose() << " vs " << base.x.transpose();
    EXPECT_EQ(own.accepted, base.accepted);
    EXPECT_EQ(own.rejected, base.rejected);
    EXPECT_EQ(own.evaluations, base.evaluations);
    EXPECT_GT(own.accepted, 10);
    if (h0 == 1.0) {
      EXPECT_GT(own.rejected, 0);
    }
  }
}

TEST(FixedSizeAdaptiveStepper, OwnLoopHandsTheObserverEveryStepAndStopsWhenAsked) {
  const sim::OdeSystem system = coupled(4);
  const auto stepper = coupled_ode45(system);
  double t = 0.0, h = 1e-3;
  sim::Vector x = sim::Vector::Constant(4, 0.5), x_new(4), dense(4);
  int seen = 0;
  double last_t = 0.0;
  const bool finished =
      sim::advance(*stepper, system, t, x, 2.0, h, x_new, {},
                   [&](double t_old, double t_now, const sim::Vector& x_now) {
                     ++seen;
                     EXPECT_EQ(t_old, last_t);
                     last_t = t_now;
                     // x is the state at t_now, which the dense output reproduces there up
                     // to the rounding of its own sum (states of size 1: 1e-12 is ~10^4 ulp).
                     stepper->interpolate(t_now, dense);
                     EXPECT_LT((dense - x_now).lpNorm<Eigen::Infinity>(), 1e-12) << t_now;
                     return t_now >= 0.5 ? sim::Observed::stop : sim::Observed::proceed;
                   });
  EXPECT_FALSE(finished);
  EXPECT_EQ(t, last_t);
  EXPECT_GE(t, 0.5);
  EXPECT_LT(t, 2.0);
  EXPECT_EQ(seen, stepper->statistics().accepted_steps);
}

TEST(FixedSizeAdaptiveStepper, OwnLoopLeavesTheLastAcceptedPointWhenItFails) {
  // f turns NaN at t > 0.3: every step past it is rejected until the loop gives up; t and x
  // are still the last accepted point, as the base loop leaves them.
  using State = std::array<double, 2>;
  const auto rhs = [](double t, const State& x, State& dx) {
    dx = {x[1], t > 0.3 ? std::nan("") : -x[0]};
  };
  for (const bool own_loop : {true, false}) {
    const auto stepper = sim::detail::make_fixed_size_stepper<2>("ode45", rhs);
    const sim::OdeSystem system(
        2, [](double, const sim::Vector&, sim::Vector&) { FAIL() << "the array f runs"; });
    double t = 0.0, h = 0.01;
    sim::Vector x = sim::Vector::Constant(2, 1.0), x_new(2);
    stepper->initialize(system, t, x, {});
    const sim::AdvanceSettings settings{.max_consecutive_rejections = 20};
    if (own_loop) {
      EXPECT_THROW(sim::advance(*stepper, system, t, x, 1.0, h, x_new, settings),
                   std::runtime_error);
    } else {
      EXPECT_THROW(stepper->sim::Stepper::advance(system, t, x, 1.0, h, x_new, settings, {}),
                   std::runtime_error);
    }
    EXPECT_GT(t, 0.2);
    EXPECT_LE(t, 0.3);
    // x(t) = (cos t + sin t, cos t - sin t) for x(0) = (1, 1); tolerance 1e-3 (the default).
    EXPECT_NEAR(x[0], std::cos(t) + std::sin(t), 1e-3);
    EXPECT_NEAR(x[1], std::cos(t) - std::sin(t), 1e-3);
  }
}

}  // namespace
