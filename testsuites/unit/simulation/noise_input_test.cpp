// The noise input (white noise in continuous dynamics as the discrete update nu ~ N(m, s^2/dt)
// held over dt) against theory: its held draws, the variance of its integral (a Wiener
// process, Var x(T) = s^2 T) and the stationary variance s^2 / (2 a) of the Ornstein-
// Uhlenbeck process it drives, by Monte Carlo with chi-square confidence bounds. Each for the
// built-in model driven by the run's u and for a diagram whose inport reads the noise itself.
#include "diagram_test_support.hpp"

#include <simverify/simulation/analysis/monte_carlo.hpp>
#include <simverify/simulation/input_signal.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace sim = simverify::simulation;

namespace {

// Two-sided bounds a correct implementation misses with probability 1e-6 (a test that is
// deterministic anyway, its streams being fixed, but whose tolerance is this bound, not a guess).
constexpr double kMiss = 1e-6;

// [lower, upper] for sigma^2 from n zero-mean normal values whose sum of squares is given:
// sum / sigma^2 ~ chi^2(n).
struct Interval {
  double lower, upper;
};
Interval variance_interval(double sum_of_squares, double n) {
  const boost::math::chi_squared chi2(n);
  return {sum_of_squares / boost::math::quantile(chi2, 1.0 - kMiss / 2),
          sum_of_squares / boost::math::quantile(chi2, kMiss / 2)};
}

// x' = -a x + u: the built-in ornstein_uhlenbeck driven by the run's input, or a diagram
// (inport -> function -a * x + u -> integrator) whose inport is bound to the signal inside the
// model, the way a requirement's u.<inport> is.
enum class Form { built_in, diagram };

std::shared_ptr<const sim::diagram::CompiledDiagram> ou_diagram() {
  namespace dt = sim::diagram::testing;
  static const auto compiled = [] {
    sim::diagram::DiagramSpec d;
    d.name = "ou";
    d.parameters = {{"a", 1.0, {}}};
    d.blocks = {dt::block("u", "inport"),
                dt::block("f", "function", {dt::text("expr", "-a * x + u")}),
                dt::block("x", "integrator")};
    d.blocks[1].function_inputs = {"x", "u"};
    d.connections = {dt::wire("u", "f.u"), dt::wire("x", "f.x"), dt::wire("f", "x")};
    return sim::diagram::compile(d);
  }();
  return compiled;
}

// x(tf) of x' = -a x + u, x(0) = 0, with u the noise of `stream`.
double end_value(Form form, double a, double mean, double std, double hold, double tf,
                 std::uint64_t stream, const std::string& method, double h) {
  sim::SimulatorSettings s;
  s.method = method;
  s.h = h;
  s.tf = tf;
  s.parameters = {{"a", a}};
  s.sample_time = hold;  // the article's update: one draw per sample, held by every stage
  s.record_trajectory = false;
  const auto noise = sim::noise_input(mean, std, hold, stream);
  if (form == Form::diagram) {
    const sim::diagram::DiagramModel model(ou_diagram(), {{"u", noise}});
    return sim::Simulator(model, s).run().x_end[0];
  }
  const auto model = sim::make_model("ornstein_uhlenbeck");
  s.input = noise;
  return sim::Simulator(*model, s).run().x_end[0];
}

class NoiseDriven : public ::testing::TestWithParam<Form> {};
INSTANTIATE_TEST_SUITE_P(BuiltInAndDiagram, NoiseDriven,
                         ::testing::Values(Form::built_in, Form::diagram), [](const auto& test) {
                           return test.param == Form::built_in ? "built_in" : "diagram";
                         });

TEST(NoiseInput, HoldsOneDrawPerIntervalAndIsAPureFunctionOfStreamAndTime) {
  const auto u = sim::noise_input(0.0, 1.0, 0.1, 42);
  for (int k = 0; k < 20; ++k) {
    const double start = u->at(0.1 * k).value;
    EXPECT_EQ(u->at(0.1 * k + 0.05).value, start);
    EXPECT_EQ(u->at(0.1 * k + 0.0999).value, start);
    EXPECT_EQ(u->at(0.1 * k + 0.05).derivative, 0.0);
    EXPECT_NE(u->at(0.1 * (k + 1)).value, start);
  }
  // 0.1 + 0.1 + 0.1 lies 5.6e-17 below 0.3 and still starts interval 3.
  EXPECT_EQ(u->at(0.1 + 0.1 + 0.1).value, u->at(0.3).value);
  // Asked in any order, the values are those of a fresh signal of the same stream.
  const auto again = sim::noise_input(0.0, 1.0, 0.1, 42);
  for (int k = 19; k >= 0; --k) EXPECT_EQ(again->at(0.1 * k).value, u->at(0.1 * k).value);
  const auto other = sim::noise_input(0.0, 1.0, 0.1, 43);
  EXPECT_NE(other->at(0.0).value, u->at(0.0).value);
  // std = 0 is the constant mean.
  EXPECT_EQ(sim::noise_input(2.5, 0.0, 0.1, 1)->at(3.7).value, 2.5);
}

TEST(NoiseInput, RejectsInvalidArguments) {
  EXPECT_THROW((void)sim::noise_input(0.0, -1.0, 0.1, 1), std::invalid_argument);
  EXPECT_THROW((void)sim::noise_input(0.0, 1.0, 0.0, 1), std::invalid_argument);
  EXPECT_THROW((void)sim::noise_input(NAN, 1.0, 0.1, 1), std::invalid_argument);
  EXPECT_THROW((void)sim::noise_input(0.0, INFINITY, 0.1, 1), std::invalid_argument);
}

// x' = nu is constant over each held interval, so every method integrates it exactly: the
// integrated effect of the noise does not depend on the solver's steps. It is hold sum_k nu_k
// over the drawn sequence, provided every stage of a step sees the draw of its interval, also
// a stage on the interval's end (rk4's last, ode45's, radau2a's c = 1): read there, the next
// draw would leak in, differently for every method. The diagram reads the noise through its
// own inport (Context::sampled_at), the built-in model through the run's held u.
// Tolerance: every Runge-Kutta method integrates a constant derivative exactly (weights sum to
// 1; the implicit stages' equations do not depend on x, so the first Newton iterate solves
// them), leaving the rounding of 100 additions of hold nu_k ~ 0.15: ~1e-14; 1e-12 is ample,
// and far below the O(hold nu) ~ 0.01 a leaked next draw costs.
TEST_P(NoiseDriven, IntegratedEffectIsTheSumOfTheDrawsWhateverTheMethod) {
  const double hold = 0.01, tf = 1.0;
  const auto noise = sim::noise_input(0.2, 1.5, hold, 7);
  double exact = 0.0;
  for (int k = 0; k < 100; ++k) exact += hold * noise->at(hold * k).value;
  const struct {
    const char* method;
    double h;
  } runs[] = {{"rk4", 0.01},      {"rk4", 0.002},   {"ode1", 0.005}, {"ode45", 0.0},
              {"radau2a", 0.005}, {"ode23tb", 0.0}, {"ode15s", 0.0}};
  for (const auto& run : runs) {
    EXPECT_NEAR(end_value(GetParam(), 0.0, 0.2, 1.5, hold, tf, 7, run.method, run.h), exact, 1e-12)
        << run.method << " h = " << run.h;
  }
}

// x' = nu: x(T) = dt sum nu_k is normal with mean m T and variance n dt^2 s^2 / dt = s^2 T.
TEST_P(NoiseDriven, IntegralIsAWienerProcessWithVarianceSSquaredT) {
  const double m = 0.3, s = 0.8, dt = 0.01, T = 2.0;
  const int runs = 2000;
  double sum = 0.0, sum_sq = 0.0;
  for (int i = 0; i < runs; ++i) {
    const double x =
        end_value(GetParam(), 0.0, m, s, dt, T, sim::analysis::stream_seed(11, i), "rk4", dt);
    sum += x - m * T;
    sum_sq += (x - m * T) * (x - m * T);
  }
  const auto bounds = variance_interval(sum_sq, runs);
  EXPECT_GE(s * s * T, bounds.lower);
  EXPECT_LE(s * s * T, bounds.upper);
  // The mean: |mean - m T| <= z(1 - kMiss/2) s sqrt(T / runs).
  const double z = boost::math::quantile(boost::math::normal(), 1.0 - kMiss / 2);
  EXPECT_LE(std::abs(sum / runs), z * s * std::sqrt(T / runs));
}

// x' = -a x + nu from x(0) = 0 with nu of mean m: x(T) is normal with mean
// (m / a) (1 - e^{-a T}) and variance V_d (1 - e^{-2 a T}); the held noise gives
// V_d = s^2 tanh(a dt / 2) / (a^2 dt) = s^2 / (2 a) (1 - (a dt)^2 / 12 + ...): 3e-5 below
// theory at a dt = 0.02, and e^{-2 a T} = 1e-7 at a T = 8, both far inside the Monte Carlo
// bounds (+-16 % for the variance). The mean is exact: the held mean is integrated exactly
// (rk4's local error at a h = 0.02 is ~(a h)^5 / 120 = 3e-11 relative).
TEST_P(NoiseDriven, DrivesOrnsteinUhlenbeckToItsStationaryMoments) {
  const double a = 2.0, m = 0.5, s = 1.2, dt = 0.01, T = 4.0;
  const int runs = 2000;
  const double mean = m / a * (1.0 - std::exp(-a * T));
  const double variance = s * s / (2.0 * a);
  double sum = 0.0, sum_sq = 0.0;
  for (int i = 0; i < runs; ++i) {
    const double x =
        end_value(GetParam(), a, m, s, dt, T, sim::analysis::stream_seed(5, i), "rk4", dt);
    sum += x - mean;
    sum_sq += (x - mean) * (x - mean);
  }
  const auto bounds = variance_interval(sum_sq, runs);
  EXPECT_GE(variance, bounds.lower);
  EXPECT_LE(variance, bounds.upper);
  EXPECT_LT(bounds.upper / bounds.lower, 1.4);  // the bound is tight enough to mean something
  // The sample mean misses the mean by more than z(1 - kMiss/2) sqrt(variance / runs) with
  // probability kMiss.
  const double z = boost::math::quantile(boost::math::normal(), 1.0 - kMiss / 2);
  EXPECT_LE(std::abs(sum / runs), z * std::sqrt(variance / runs));
}

}  // namespace
