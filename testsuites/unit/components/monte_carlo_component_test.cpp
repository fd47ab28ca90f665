// The `monte_carlo` component against an independent implementation of its streams and
// statistics (testsuites/unit/components/monte_carlo_reference.py: the SplitMix64 streams
// re-implemented in Python, closed-form samples, numpy/scipy statistics), and its load-time
// errors.
#include <simverify/components/components.hpp>
#include <simverify/framework/grid.hpp>
#include <simverify/framework/loader.hpp>

#include <gtest/gtest.h>

#include "component_test_support.hpp"

#include <cmath>
#include <variant>

namespace fw = simverify::framework;

namespace {

using simverify::components::testing::measure;
using simverify::components::testing::Values;

fw::Measurement evaluate_monte_carlo(const Values& values) {
  return simverify::components::testing::evaluate("monte_carlo", values);
}

const fw::ComponentRegistry& monte_carlo_registry() {
  return simverify::components::testing::builtin_registry();
}

// x(1) = e^lambda with lambda ~ U(-1.5, -0.5), 64 runs, seed 2.
std::vector<std::pair<std::string, fw::Value>> exponential_study(double runs) {
  return {{"model", "exponential"},
          {"method", "ode45"},
          {"rtol", 1e-12},
          {"atol", 1e-14},
          {"tf", 1.0},
          {"reference", "none"},
          {"of", "final(x_end)"},
          {"runs", runs},
          {"seed", 2.0},
          {"perturb",
           fw::Value::Map{{"p.lambda", fw::Value::Map{{"uniform", fw::Value::List{-1.5, -0.5}}}}}}};
}

}  // namespace

TEST(MonteCarloComponent, StatisticsMatchAnIndependentImplementation) {
  const auto m = evaluate_monte_carlo(exponential_study(64));
  // Reference values printed by monte_carlo_reference.py. The samples are ode45 runs at
  // rtol 1e-12 (~1e-12 relative to e^lambda ~ 0.4), the reference uses exp(): 1e-10
  // absolute covers the solver error of every statistic, including the t-interval.
  constexpr double tol = 1e-10;
  EXPECT_NEAR(measure(m, "mean"), 0.3922139454686764, tol);
  EXPECT_NEAR(measure(m, "std"), 0.11345443303714844, tol);
  EXPECT_NEAR(measure(m, "ci_lower"), 0.3638738713209373, tol);
  EXPECT_NEAR(measure(m, "ci_upper"), 0.4205540196164155, tol);
  EXPECT_NEAR(measure(m, "min"), 0.22711363429676473, tol);
  EXPECT_NEAR(measure(m, "max"), 0.5969970601680249, tol);
  EXPECT_NEAR(measure(m, "median"), 0.362455476235457, tol);
  EXPECT_NEAR(measure(m, "q05"), 0.2428041577638524, tol);
  EXPECT_NEAR(measure(m, "q95"), 0.575941848249136, tol);
  // numpy.polyfit(lambda, x, 1)[0]: the Monte Carlo sensitivity d x / d lambda.
  EXPECT_NEAR(measure(m, "slope"), 0.38989945347281885, 1e-9);
  const auto samples = std::get<std::vector<double>>(*m.find("samples"));
  ASSERT_EQ(samples.size(), 64u);
  // Run 0 draws lambda = -0.9349701862468435 (reference script), recorded as drawn.p.lambda.
  EXPECT_NEAR(samples[0], std::exp(-0.9349701862468435), 1e-12);
  EXPECT_EQ(std::get<std::vector<double>>(*m.find("drawn.p.lambda"))[0], -0.9349701862468435);
}

TEST(MonteCarloComponent, StatisticsAgreeWithTheDistribution) {
  // Closed form for lambda ~ U(a, b), x = e^lambda: E[x] = (e^b - e^a) / (b - a) =
  // 0.38340049956420363 and the t-interval of a correct sample covers it; the regression
  // slope estimates dE[x|lambda]/dlambda averaged over the range, between e^a and e^b.
  const auto m = evaluate_monte_carlo(exponential_study(64));
  const double mean = (std::exp(-0.5) - std::exp(-1.5));
  EXPECT_LT(measure(m, "ci_lower"), mean);
  EXPECT_GT(measure(m, "ci_upper"), mean);
  EXPECT_GT(measure(m, "slope"), std::exp(-1.5));
  EXPECT_LT(measure(m, "slope"), std::exp(-0.5));
}

TEST(MonteCarloComponent, RunsDependOnTheSeedAndTheirIndexAlone) {
  // A study of 16 runs repeats the first 16 runs of one of 64 (so --jobs and --shard, which
  // only move whole points, cannot change a result), and another seed gives other runs.
  const auto first =
      std::get<std::vector<double>>(*evaluate_monte_carlo(exponential_study(16)).find("samples"));
  const auto all =
      std::get<std::vector<double>>(*evaluate_monte_carlo(exponential_study(64)).find("samples"));
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i], all[i]) << i;
  auto other = exponential_study(16);
  other[8].second = 3.0;
  EXPECT_NE(std::get<std::vector<double>>(*evaluate_monte_carlo(other).find("samples"))[0],
            first[0]);
}

TEST(MonteCarloComponent, NormalPerturbationAndConfidenceLevel) {
  // lambda ~ N(-1, 0.01): x = e^lambda is nearly normal with std e^-1 * 0.01 = 0.00368;
  // with 400 runs the sample std is within 4 standard errors (4 * 0.00368 / sqrt(800)).
  auto c = exponential_study(400);
  c.back().second =
      fw::Value::Map{{"p.lambda", fw::Value::Map{{"normal", fw::Value::List{-1.0, 0.01}}}}};
  c.emplace_back("level", 0.99);
  const auto m = evaluate_monte_carlo(c);
  EXPECT_NEAR(measure(m, "std"), std::exp(-1.0) * 0.01, 4 * 0.00368 / std::sqrt(800.0));
  // A 99% interval is wider than the 95% one by t_0.995 / t_0.975 (399 dof) =
  // 2.5882 / 1.9659 = 1.3165 (scipy.stats.t.ppf).
  auto c95 = c;
  c95.back().second = 0.95;
  const auto m95 = evaluate_monte_carlo(c95);
  const double ratio = (measure(m, "ci_upper") - measure(m, "ci_lower")) /
                       (measure(m95, "ci_upper") - measure(m95, "ci_lower"));
  EXPECT_NEAR(ratio, 1.3165, 5e-4);
}

TEST(MonteCarloComponent, InitialStateComponentsCanBePerturbed) {
  // x(1) = x0 e^{-0.5} is linear in x0, so the least-squares slope over any sample is
  // exactly e^{-0.5} and normalized_slope exactly 1 (up to the solver's rtol 1e-12).
  auto c = exponential_study(20);
  c.back().second =
      fw::Value::Map{{"x0[0]", fw::Value::Map{{"normal", fw::Value::List{2.0, 0.1}}}}};
  c.emplace_back("p.lambda", -0.5);
  const auto m = evaluate_monte_carlo(c);
  EXPECT_NEAR(measure(m, "slope"), std::exp(-0.5), 1e-10);
  EXPECT_NEAR(measure(m, "normalized_slope"), 1.0, 1e-10);
  c[9].second = fw::Value::Map{{"x0[1]", fw::Value::Map{{"uniform", fw::Value::List{0.0, 1.0}}}}};
  EXPECT_THROW((void)evaluate_monte_carlo(c), std::invalid_argument);  // one state only
}

TEST(MonteCarloComponent, TheWorstRunCanBeRerunAloneFromWhatItRecorded) {
  // A reviewer re-runs the run that gave `max` as one `simulate` point: the drawn input
  // `drawn.p.s1[max_run]` and the road seed `run_seeds[max_run]` reproduce its sample
  // bit for bit (the same conditions run the same code), on a random road so the seed matters.
  const Values study = {
      {"model", "quarter_car"},
      {"method", "ode45"},
      {"rtol", 1e-6},
      {"tf", 1.0},
      {"reference", "none"},
      {"u", fw::Value::Map{{"road", fw::Value::Map{{"class", "C"}, {"speed", 20.0}}}}},
      {"of", "rms(y.chassis_acceleration)"},
      {"runs", 6.0},
      {"seed", 5.0},
      {"perturb",
       fw::Value::Map{{"p.s1", fw::Value::Map{{"uniform", fw::Value::List{1.5e4, 2.5e4}}}}}}};
  const auto m = evaluate_monte_carlo(study);
  const auto samples = std::get<std::vector<double>>(*m.find("samples"));
  const auto drawn = std::get<std::vector<double>>(*m.find("drawn.p.s1"));
  const auto seeds = std::get<std::vector<double>>(*m.find("run_seeds"));
  ASSERT_EQ(drawn.size(), 6u);
  ASSERT_EQ(seeds.size(), 6u);
  const auto worst = static_cast<std::size_t>(measure(m, "max_run"));
  const auto best = static_cast<std::size_t>(measure(m, "min_run"));
  EXPECT_EQ(samples[worst], measure(m, "max"));
  EXPECT_EQ(samples[best], measure(m, "min"));
  for (const double s1 : drawn) {
    EXPECT_GE(s1, 1.5e4);
    EXPECT_LE(s1, 2.5e4);
  }
  Values rerun(study.begin(), study.begin() + 6);
  rerun.emplace_back("p.s1", drawn[worst]);
  rerun.emplace_back("seed", seeds[worst]);
  const auto alone = simverify::components::testing::evaluate("simulate", rerun);
  const auto* series = std::get_if<fw::TimeSeries>(alone.find("y.chassis_acceleration"));
  ASSERT_NE(series, nullptr);
  fw::Measurement one;
  one.set("y.chassis_acceleration", *series);
  EXPECT_EQ(fw::evaluate_measure(one, "rms(y.chassis_acceleration)"), samples[worst]);
  // Another road seed gives another sample: the recorded seed is what made it.
  rerun.back().second = seeds[worst] + 1.0;
  const auto other = simverify::components::testing::evaluate("simulate", rerun);
  one.set("y.chassis_acceleration",
          std::get<fw::TimeSeries>(*other.find("y.chassis_acceleration")));
  EXPECT_NE(fw::evaluate_measure(one, "rms(y.chassis_acceleration)"), samples[worst]);
}

namespace {

std::string monte_carlo_load_error(const std::string& conditions,
                                   const std::string& measure = "mean") {
  const std::string text = R"(requirements:
  - id: MC-1
    title: Monte Carlo
    level: system
    component: monte_carlo
    conditions:
      model: exponential
      of: final(x_end)
)" + conditions + R"(
    quality:
      measure: )" + measure +
                           R"(
      threshold: "<= 1"
)";
  fw::LoadResult result;
  fw::parse_requirements(text, "study.yaml", monte_carlo_registry(), result);
  return result.errors.empty() ? "" : result.errors.front().str();
}

}  // namespace

TEST(MonteCarloComponent, MalformedStudiesAreReportedWithTheirLocation) {
  EXPECT_EQ(monte_carlo_load_error("      runs: 10\n      perturb: {p.lambda: {uniform: [-1, 0]}}"),
            "");
  EXPECT_EQ(monte_carlo_load_error("      runs: 1"),
            "study.yaml:9:13: error: condition 'runs': runs must be a whole number >= 2");
  EXPECT_EQ(
      monte_carlo_load_error("      runs: 10\n      perturb: {p.lamda: {uniform: [-1, 0]}}")
          .rfind("study.yaml:10:16: error: conditions (model: exponential, perturb: {p.lamda: "
                 "{uniform: [-1, 0]}}): model 'exponential' has no parameter 'lamda' (did "
                 "you mean 'lambda'?); its parameters: lambda",
                 0),
      0u);
  EXPECT_EQ(monte_carlo_load_error("      runs: 10\n      perturb: {p.lambda: {uniform: [0, -1]}}"),
            "study.yaml:10:16: error: condition 'perturb': uniform: expected [low, high] with "
            "low <= high");
  EXPECT_EQ(
      monte_carlo_load_error("      runs: 10\n      perturb: {p.lambda: {triangular: [0, 1]}}"),
      "study.yaml:10:16: error: condition 'perturb': perturb 'p.lambda': expected "
      "{uniform: [low, high]} or {normal: [mean, std]}");
  EXPECT_EQ(monte_carlo_load_error("      runs: 10\n      perturb: {}"),
            "study.yaml:10:16: error: condition 'perturb': expected a mapping from inputs to "
            "distributions, e.g. {p.phi_pin: {uniform: [a, b]}}");
  EXPECT_EQ(monte_carlo_load_error("      runs: 10\n      perturb: {x0: {uniform: [0, 1]}}"),
            "study.yaml:10:16: error: condition 'perturb': perturb 'x0': perturb one component, "
            "x0[<i>]");
  EXPECT_EQ(monte_carlo_load_error("      runs: 10\n      level: 95"),
            "study.yaml:10:14: error: condition 'level': level must be in (0, 1)");
  // A drawn input as the measure: only one the study perturbs, located at `measure:`.
  EXPECT_EQ(monte_carlo_load_error("      runs: 10\n      perturb: {p.lambda: {uniform: [-1, 0]}}",
                                   "max(drawn.p.lambda)"),
            "");
  EXPECT_EQ(monte_carlo_load_error("      runs: 10\n      perturb: {p.lambda: {uniform: [-1, 0]}}",
                                   "max(drawn.p.lamda)"),
            "study.yaml:12:16: error: measure 'drawn.p.lamda': perturb does not draw 'p.lamda' "
            "(did you mean 'p.lambda'?); it draws p.lambda");
  EXPECT_EQ(monte_carlo_load_error("      runs: 10", "max(drawn.p.lambda)"),
            "study.yaml:11:16: error: measure 'drawn.p.lambda': the study perturbs no input "
            "(condition 'perturb')");
}
