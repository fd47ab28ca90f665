// The `of:` of the studies built on simulate (components/src/study_measure.hpp): the same
// forms in sensitivity, monte_carlo and scenario (an element of a vector included), and a
// misspelt `of:` refused when the file loads, at the value, with the nearest name and the list.
#include <simverify/framework/loader.hpp>

#include <gtest/gtest.h>

#include "component_test_support.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

namespace fw = simverify::framework;

namespace {

using simverify::components::testing::evaluate;
using simverify::components::testing::measure;
using simverify::components::testing::Values;

// x(1) = e^lambda (one state), lambda ~ U(-1.5, -0.5) in the Monte Carlo study.
Values exponential_run(const std::string& of) {
  return {
      {"model", "exponential"}, {"method", "ode45"}, {"rtol", 1e-12}, {"atol", 1e-14}, {"tf", 1.0},
      {"reference", "none"},    {"of", of}};
}

Values monte_carlo_study(const std::string& of) {
  Values c = exponential_run(of);
  c.emplace_back("runs", 8.0);
  c.emplace_back(
      "perturb",
      fw::Value::Map{{"p.lambda", fw::Value::Map{{"uniform", fw::Value::List{-1.5, -0.5}}}}});
  return c;
}

std::vector<double> samples(const fw::Measurement& m) {
  return std::get<std::vector<double>>(*m.find("samples"));
}

std::string load_error(const std::string& component, const std::string& conditions,
                       const std::string& measure) {
  const std::string text = R"(requirements:
  - id: ST-1
    title: a study
    level: system
    component: )" + component +
                           R"(
    conditions:
      model: constrained_pendulum
)" + conditions + R"(
    quality:
      measure: )" + measure +
                           R"(
      threshold: "<= 1"
)";
  fw::LoadResult result;
  fw::parse_requirements(text, "study.yaml", simverify::components::testing::builtin_registry(),
                         result);
  return result.errors.empty() ? "" : result.errors.front().str();
}

}  // namespace

TEST(StudyMeasure, MonteCarloTakesAnElementOfAVector) {
  // The one state at tf, as an element and as the last element: the same samples.
  EXPECT_EQ(samples(evaluate("monte_carlo", monte_carlo_study("x_end[0]"))),
            samples(evaluate("monte_carlo", monte_carlo_study("final(x_end)"))));
  // An element beyond the vector fails the point when it runs, saying how many there are
  // (after which run and what it drew, as any failing run of a study does).
  try {
    (void)evaluate("monte_carlo", monte_carlo_study("x_end[1]"));
    ADD_FAILURE() << "x_end[1] of a one-state model did not throw";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.starts_with("run 0 of ")) << what;
    EXPECT_TRUE(what.ends_with("): x_end[1] is out of range: the run gave 1 state")) << what;
  }
}

TEST(StudyMeasure, SensitivityByCentralDifferencesTakesAnElementOfAVector) {
  // d x(1) / d lambda = e^lambda at lambda = -1 (exponential model, x0 = 1).
  Values c = exponential_run("x_end[0]");
  c.emplace_back("wrt", "p.lambda");
  c.emplace_back("p.lambda", -1.0);
  const auto m = evaluate("sensitivity", c);
  EXPECT_NEAR(measure(m, "derivative"), std::exp(-1.0), 1e-6);
  EXPECT_NEAR(measure(m, "value"), std::exp(-1.0), 1e-10);
}

TEST(StudyMeasure, ScenarioTakesAnElementOfAVector) {
  Values c = exponential_run("x_end[0]");
  c.emplace_back("scenarios", fw::Value::Map{{"base", fw::Value::Map{{"p.lambda", -1.0}}},
                                             {"fast", fw::Value::Map{{"p.lambda", -2.0}}}});
  const auto m = evaluate("scenario", c);
  EXPECT_NEAR(measure(m, "base_case"), std::exp(-1.0), 1e-10);
  EXPECT_NEAR(measure(m, "best_case"), std::exp(-2.0), 1e-10);
}

TEST(StudyMeasure, TheFormsAreAcceptedWhenTheFileLoads) {
  for (const char* of :
       {"event_times[0]", "x_end[1]", "final(event_times)", "event_count", "max_abs(y.phi)"}) {
    EXPECT_EQ(
        load_error("monte_carlo", std::string("      runs: 4\n      of: \"") + of + "\"", "mean"),
        "")
        << of;
    EXPECT_EQ(
        load_error("sensitivity", std::string("      wrt: p.phi_pin\n      of: \"") + of + "\"",
                   "derivative"),
        "")
        << of;
  }
}

TEST(StudyMeasure, AMisspeltOfIsALoadErrorAtTheValue) {
  EXPECT_EQ(
      load_error("sensitivity", "      wrt: p.phi_pin\n      of: final(event_timez)", "derivative"),
      "study.yaml:9:11: error: condition 'of': simulate does not measure 'event_timez' "
      "(did you mean 'event_times'?); its measures: x_end, t_end, error_end, error_max, "
      "error_per_rtol, steps, rejected_steps, f_evals, event_times, event_count, zeno, "
      "trajectory, y.<output>, terminated");
  EXPECT_EQ(load_error("monte_carlo", "      runs: 4\n      of: fnal(event_times)", "mean"),
            "study.yaml:9:11: error: condition 'of': unknown reduction 'fnal' in "
            "'fnal(event_times)' (did you mean 'final'?); known: final, max_abs, rms, max, "
            "min, peak, peak_time, overshoot, undershoot, rise_time, settling_time, "
            "steady_state_error");
  // A step-response measure with its arguments: the band is checked, the name read before it.
  EXPECT_EQ(load_error("monte_carlo", "      runs: 4\n      of: settling_time(y.phi, 2)", "mean"),
            "study.yaml:9:11: error: condition 'of': 'settling_time(y.phi, 2)': the band of "
            "settling_time must be a number between 0 and 1 (a fraction of the step's change: "
            "0.05 for 5 %), found '2'");
  EXPECT_EQ(
      load_error("monte_carlo", "      runs: 4\n      of: settling_time(y.phi, 0.05)", "mean"), "");
  EXPECT_EQ(load_error("monte_carlo", "      runs: 4\n      of: rms(y.phy)", "mean"),
            "study.yaml:9:11: error: condition 'of': model 'constrained_pendulum' has no output "
            "'phy' (did you mean 'phi'?); its outputs: phi, v, dphi, length");
  EXPECT_EQ(
      load_error("scenario", "      scenarios: {base: {}}\n      of: event_times", "base_case"),
      "study.yaml:9:11: error: condition 'of': 'event_times' is a vector, not one number "
      "per run: pick an element (event_times[0]) or reduce it (final(event_times), "
      "max_abs(..) or rms(..))");
  EXPECT_EQ(load_error("monte_carlo", "      runs: 4\n      of: y.phi[0]", "mean"),
            "study.yaml:9:11: error: condition 'of': 'y.phi[0]': [<i>] picks an element of a "
            "vector, x_end or event_times; 'y.phi' is a time series: reduce it, e.g. "
            "final(y.phi)");
  EXPECT_EQ(load_error("monte_carlo", "      runs: 4\n      of: \"event_times[-1]\"", "mean"),
            "study.yaml:9:11: error: condition 'of': 'event_times[-1]': an element of a vector "
            "is written <name>[<i>] with a whole index i >= 0, e.g. event_times[0]");
  EXPECT_EQ(load_error("monte_carlo", "      runs: 4", "mean"),
            "study.yaml:2:9: error: missing condition 'of': a measure of simulate that is one "
            "number per run: a number (error_end, event_count), a vector or series reduced "
            "(final(event_times), rms(y.<output>)) or an element of a vector (event_times[0], "
            "x_end[1])");
}
