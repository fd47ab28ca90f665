// The fixed-size path of the explicit Runge-Kutta step (fixed_size_runge_kutta.hpp): the same
// results as the generic path, bitwise, for every shipped explicit tableau and every size it
// takes; chosen for up to kMaxFixedSizeStates states only; and, called directly on
// std::array with a lambda, the classical order against the exact solution.
#include <simverify/simulation/fixed_size_runge_kutta.hpp>
#include <simverify/simulation/tableaux.hpp>
#include "explicit_runge_kutta.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <string>
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
sim::OdeSystem coupled(Eigen::Index n) {
  return {n, [n](double t, const sim::Vector& x, sim::Vector& dx) {
            for (Eigen::Index i = 0; i < n; ++i) {
              dx(i) = std::sin(x((i + 1) % n)) - (0.3 + 0.1 * static_cast<double>(i)) * x(i) +
                      std::cos(t) * x(0);
            }
          }};
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

}  // namespace
