// The step-response reductions (overshoot, rise_time, settling_time, ...) against analytic
// step responses sampled finely, and hand-computed cases on coarse piecewise-linear series
// where the linear interpolation of crossings is exact.
#include "measure_error.hpp"

#include <simverify/framework/quality.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace fw = simverify::framework;

namespace {

fw::Measurement step_series(const std::vector<double>& t, const std::vector<double>& y) {
  fw::Measurement m;
  m.set("y.x", fw::TimeSeries{t, {"x"}, {y}});
  return m;
}

fw::Measurement sampled(const std::function<double(double)>& f, double tf, std::size_t n) {
  std::vector<double> t(n + 1);
  std::vector<double> y(n + 1);
  for (std::size_t i = 0; i <= n; ++i) {
    t[i] = tf * static_cast<double>(i) / static_cast<double>(n);
    y[i] = f(t[i]);
  }
  return step_series(t, y);
}

double eval(const fw::Measurement& m, const std::string& measure) {
  return fw::evaluate_measure(m, measure);
}

}  // namespace

// y = K (1 - exp(-t / tau)): 10 % at tau ln(10/9), 90 % at tau ln 10, so rise time tau ln 9;
// |y - K| = 0.02 K at tau ln 50; monotone, so no overshoot or undershoot.
TEST(StepResponse, FirstOrderLagMatchesItsAnalyticTimes) {
  const double tau = 0.5;
  for (const double gain : {2.0, -3.0}) {  // a falling step measures the same
    // dt = tau / 1000 over 20 tau. Linear interpolation between samples misplaces a level
    // crossing by at most (dt^2 / 8) |y''| / |y'| = dt^2 / (8 tau) = 1.25e-7 tau here; the
    // last sample sits e^-20 (2e-9) short of K. Hence 1e-6 tau.
    const auto m =
        sampled([&](double t) { return gain * (1.0 - std::exp(-t / tau)); }, 20 * tau, 20000);
    const double tol = 1e-6 * tau;
    EXPECT_NEAR(eval(m, "rise_time(y.x)"), tau * std::log(9.0), tol);
    EXPECT_NEAR(eval(m, "settling_time(y.x)"), tau * std::log(50.0), tol);
    EXPECT_NEAR(eval(m, "settling_time(y.x, 0.05)"), tau * std::log(20.0), tol);
    EXPECT_NEAR(eval(m, "settling_time( y.x ,0.1 )"), tau * std::log(10.0), tol);
    EXPECT_EQ(eval(m, "overshoot(y.x)"), 0.0);
    EXPECT_EQ(eval(m, "undershoot(y.x)"), 0.0);
    EXPECT_NEAR(eval(m, "peak(y.x)"), std::abs(gain), 1e-8);
    EXPECT_EQ(eval(m, "peak_time(y.x)"), 20 * tau);  // the last sample is the largest
    EXPECT_NEAR(eval(m, "steady_state_error(y.x, 1)"), std::abs(gain - 1.0), 1e-8);
    EXPECT_EQ(eval(m, "max(y.x)"), gain > 0 ? gain * (1.0 - std::exp(-20.0)) : 0.0);
    EXPECT_EQ(eval(m, "min(y.x)"), gain > 0 ? 0.0 : gain * (1.0 - std::exp(-20.0)));
  }
}

// y = 1 - exp(-zeta wn t) sin(wd t + acos zeta) / sqrt(1 - zeta^2), wd = wn sqrt(1 - zeta^2):
// overshoot exp(-zeta pi / sqrt(1 - zeta^2)) at the peak time pi / wd.
TEST(StepResponse, UnderdampedSecondOrderMatchesItsOvershootAndPeakTime) {
  for (const double zeta : {0.1, 0.3, 0.6}) {
    const double wn = 2.0;
    const double root = std::sqrt(1.0 - zeta * zeta);
    const double wd = wn * root;
    const auto response = [&](double t) {
      return 1.0 - std::exp(-zeta * wn * t) * std::sin(wd * t + std::acos(zeta)) / root;
    };
    // dt = 1e-4 over 100 s (e^-20 of the transient left at the end at zeta = 0.1). The largest
    // sample is within dt / 2 of the true peak, where y' = 0: its value is at most
    // |y''| (dt / 2)^2 / 2 < wn^2 (dt / 2)^2 = 1e-8 low (1e-6 in percent); its time within
    // dt / 2.
    const double dt = 1e-4;
    const auto m = sampled(response, 100.0, 1000000);
    const double overshoot = std::exp(-zeta * std::numbers::pi / root);
    EXPECT_NEAR(eval(m, "overshoot(y.x)"), 100.0 * overshoot, 1e-5) << zeta;
    EXPECT_NEAR(eval(m, "peak_time(y.x)"), std::numbers::pi / wd, dt / 2 + 1e-12) << zeta;
    EXPECT_NEAR(eval(m, "peak(y.x)"), 1.0 + overshoot, 1e-7) << zeta;
    EXPECT_NEAR(eval(m, "max(y.x)"), 1.0 + overshoot, 1e-7) << zeta;
    EXPECT_EQ(eval(m, "undershoot(y.x)"), 0.0) << zeta;
    // The settling time against the last time |y - 1| = 0.02 of the analytic response (a
    // backward scan every 1e-5 s, then bisection), with the interpolation bound
    // (dt^2 / 8) max |y''| / |y'| at that crossing, max |y''| <= wn^2 / sqrt(1 - zeta^2).
    const auto outside = [&](double t) { return std::abs(response(t) - 1.0) - 0.02; };
    double lo = 100.0;
    while (outside(lo) <= 0) lo -= 1e-5;
    double hi = lo + 1e-5;
    for (int i = 0; i < 60; ++i) (outside(0.5 * (lo + hi)) > 0 ? lo : hi) = 0.5 * (lo + hi);
    const double slope = std::abs(response(lo + 1e-7) - response(lo - 1e-7)) / 2e-7;
    const double bound = dt * dt / 8 * wn * wn / root / slope;
    EXPECT_NEAR(eval(m, "settling_time(y.x)"), lo, bound + 1e-12)
        << zeta << ": slope " << slope << ", bound " << bound;
  }
}

// G(s) = (1 - s) / (s + 1)^2, a non-minimum-phase step: y = 1 - (1 + 2 t) e^-t first dips
// to 1 - 2 e^-1/2 at t = 1/2.
TEST(StepResponse, NonMinimumPhaseUndershoot) {
  const auto m =
      sampled([](double t) { return 1.0 - (1.0 + 2.0 * t) * std::exp(-t); }, 40.0, 400000);
  EXPECT_NEAR(eval(m, "undershoot(y.x)"), 100.0 * (2.0 * std::exp(-0.5) - 1.0), 1e-6);
  EXPECT_NEAR(eval(m, "min(y.x)"), 1.0 - 2.0 * std::exp(-0.5), 1e-8);
  EXPECT_EQ(eval(m, "overshoot(y.x)"), 0.0);
}

// Coarse piecewise-linear data, every number by hand: change 1, 10 % reached at 0.1 / 1.2,
// 90 % at 0.75; |y - 1| last above 0.02 at t = 1 (0.2), entering the band on the line to
// (2, 0.99) at 1 + 0.18 / 0.21.
TEST(StepResponse, CrossingsInterpolateLinearlyBetweenSamples) {
  const auto m = step_series({0, 1, 2, 3}, {0, 1.2, 0.99, 1});
  EXPECT_DOUBLE_EQ(eval(m, "rise_time(y.x)"), 0.75 - 0.1 / 1.2);
  EXPECT_DOUBLE_EQ(eval(m, "settling_time(y.x)"), 1.0 + 0.18 / 0.21);
  EXPECT_DOUBLE_EQ(eval(m, "overshoot(y.x)"), 20.0);
  EXPECT_DOUBLE_EQ(eval(m, "peak(y.x)"), 1.2);
  EXPECT_EQ(eval(m, "peak_time(y.x)"), 1.0);
  EXPECT_DOUBLE_EQ(eval(m, "steady_state_error(y.x, 1.25)"), 0.25);
  // Times count from the first sample: the same data 5 s later gives the same times.
  const auto later = step_series({5, 6, 7, 8}, {0, 1.2, 0.99, 1});
  EXPECT_DOUBLE_EQ(eval(later, "settling_time(y.x)"), 1.0 + 0.18 / 0.21);
  EXPECT_EQ(eval(later, "peak_time(y.x)"), 1.0);
}

TEST(StepResponse, NegativePeakIsItsMagnitudeAndMaxMinAreSigned) {
  const auto m = step_series({0, 1, 2}, {0.5, -2.0, 1.0});
  EXPECT_EQ(eval(m, "peak(y.x)"), 2.0);
  EXPECT_EQ(eval(m, "peak_time(y.x)"), 1.0);
  EXPECT_EQ(eval(m, "max(y.x)"), 1.0);
  EXPECT_EQ(eval(m, "min(y.x)"), -2.0);
  EXPECT_EQ(eval(m, "max_abs(y.x)"), 2.0);
  // change 0.5: down to -2 is 2.5 beyond the start, against the step's direction
  EXPECT_EQ(eval(m, "undershoot(y.x)"), 500.0);
}

TEST(StepResponse, AResponseNotSeenToSettleIsInfinitelySlow) {
  // A ramp: only the last sample lies within 2 % of the final value, so the run ends before
  // the response is seen to settle; +inf fails every "<=" threshold.
  const auto m = step_series({0, 1, 2, 3, 4}, {0, 1, 2, 3, 4});
  const double t = eval(m, "settling_time(y.x)");
  EXPECT_EQ(t, std::numeric_limits<double>::infinity());
  EXPECT_FALSE(fw::Threshold::parse("<= 1e300")->satisfied(t));
  // Inside a 30 % band from 3 on: settled where the line from (2, 2) reaches 4 - 1.2.
  EXPECT_DOUBLE_EQ(eval(m, "settling_time(y.x, 0.3)"), 2.8);
}

TEST(StepResponse, ANaNSampleFailsEveryMeasure) {
  const double nan = std::nan("");
  const std::vector<const char*> measures = {
      "overshoot(y.x)", "undershoot(y.x)", "peak(y.x)",
      "peak_time(y.x)", "rise_time(y.x)",  "settling_time(y.x)",
      "max(y.x)",       "min(y.x)",        "steady_state_error(y.x, 1)"};
  for (const auto& m : {step_series({0, 1, 2}, {0, nan, 1}), step_series({0, 1, 2}, {nan, 1, 1}),
                        step_series({0, 1, 2}, {0, 1, nan})}) {
    for (const char* measure : measures) {
      EXPECT_TRUE(std::isnan(eval(m, measure))) << measure;
      EXPECT_FALSE(fw::Threshold::parse("<= 1e300")->satisfied(eval(m, measure))) << measure;
    }
  }
  // A NaN time: every measure but max and min (which read no time) is NaN.
  const auto m = step_series({0, nan, 2}, {0, 1, 1});
  for (const char* measure : measures) {
    const std::string written = measure;
    if (written.starts_with("max(") || written.starts_with("min(")) continue;
    EXPECT_TRUE(std::isnan(eval(m, measure))) << measure;
  }
}

TEST(StepResponse, TooShortOrFlatResponsesAreClearErrors) {
  const auto one = step_series({0}, {1});
  EXPECT_EQ(fw::fakes::measure_error(one, "overshoot(y.x)"),
            "overshoot(y.x) needs a response of at least 2 samples; 'y.x' has 1");
  EXPECT_EQ(fw::fakes::measure_error(one, "settling_time(y.x)"),
            "settling_time(y.x) needs a response of at least 2 samples; 'y.x' has 1");
  EXPECT_EQ(eval(one, "max(y.x)"), 1.0);  // max and min need no step
  const auto flat = step_series({0, 1, 2}, {1, 3, 1});
  for (const char* measure : {"overshoot", "undershoot", "rise_time", "settling_time"}) {
    EXPECT_EQ(fw::fakes::measure_error(flat, std::string(measure) + "(y.x)"),
              std::string(measure) +
                  "(y.x) is relative to the step's change, and 'y.x' ends where it starts (1): no "
                  "step to measure against");
  }
  EXPECT_EQ(eval(flat, "peak(y.x)"), 3.0);  // absolute measures still work
  EXPECT_EQ(eval(flat, "steady_state_error(y.x, 0)"), 1.0);
  fw::Measurement vector;
  vector.set("v", std::vector<double>{0.0, 1.0});
  EXPECT_EQ(fw::fakes::measure_error(vector, "rise_time(v)"),
            "rise_time(v) reads the time axis: 'v' is a vector, not a time series");
  EXPECT_EQ(eval(vector, "overshoot(v)"), 0.0);
}

TEST(StepResponse, ArgumentsAreCheckedByCountAndValue) {
  EXPECT_EQ(fw::reduction_arguments_problem("settling_time(y.x)"), std::nullopt);
  EXPECT_EQ(fw::reduction_arguments_problem("settling_time(y.x, 0.05)"), std::nullopt);
  EXPECT_EQ(fw::reduction_arguments_problem("steady_state_error(y.x, -1e3)"), std::nullopt);
  EXPECT_EQ(fw::reduction_arguments_problem("rms(y.x)"), std::nullopt);
  EXPECT_EQ(fw::reduction_arguments_problem("y.x"), std::nullopt);
  EXPECT_EQ(fw::reduction_arguments_problem("mean(y.x, 3)"), std::nullopt);  // unknown: caller's
  EXPECT_EQ(*fw::reduction_arguments_problem("settling_time(y.x, 2)"),
            "the band of settling_time must be a number between 0 and 1 (a fraction of the "
            "step's change: 0.05 for 5 %), found '2'");
  EXPECT_EQ(*fw::reduction_arguments_problem("settling_time(y.x, 0.02, 1)"),
            "settling_time takes the measure and an optional band (a fraction of the step's "
            "change, default 0.02), e.g. settling_time(y.x, 0.05)");
  EXPECT_EQ(*fw::reduction_arguments_problem("steady_state_error(y.x)"),
            "steady_state_error takes the measure and the target value, e.g. "
            "steady_state_error(y.x, 10)");
  EXPECT_EQ(*fw::reduction_arguments_problem("steady_state_error(y.x, ten)"),
            "the target of steady_state_error must be a finite number, found 'ten'");
  EXPECT_EQ(*fw::reduction_arguments_problem("overshoot(y.x, 5)"),
            "overshoot takes one measure and nothing else, e.g. overshoot(y.x)");
  EXPECT_EQ(*fw::reduction_arguments_problem("max_abs(y.x, 5)"),
            "max_abs takes one measure and nothing else, e.g. max_abs(y.x)");
  fw::Quality q;
  q.measure = "settling_time( y.speed , 0.05)";
  EXPECT_EQ(fw::measured_name(q), "y.speed");
}

TEST(StepResponse, EveryReductionIsListed) {
  EXPECT_EQ(fw::measure_reductions(),
            (std::vector<std::string>{"final", "max_abs", "rms", "max", "min", "peak", "peak_time",
                                      "overshoot", "undershoot", "rise_time", "settling_time",
                                      "steady_state_error"}));
}
