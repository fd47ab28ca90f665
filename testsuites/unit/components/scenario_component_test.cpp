// The `scenario` component (Def 4.26) against closed forms, and its load-time errors.
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

fw::Measurement evaluate_scenario(const Values& values) {
  return simverify::components::testing::evaluate("scenario", values);
}

const fw::ComponentRegistry& scenario_registry() {
  return simverify::components::testing::builtin_registry();
}

fw::Value lambda_scenario(double lambda) {
  return fw::Value::Map{{"p.lambda", lambda}};
}

// x(2) = 3 e^{2 lambda} for lambda in {base -1, mild -0.5, strong -2} (exponential model).
std::vector<std::pair<std::string, fw::Value>> exponential_scenario() {
  return {{"model", "exponential"},
          {"method", "ode45"},
          {"rtol", 1e-12},
          {"atol", 1e-14},
          {"tf", 2.0},
          {"x0", fw::Value::List{3.0}},
          {"reference", "none"},
          {"of", "final(x_end)"},
          {"scenarios", fw::Value::Map{{"base", lambda_scenario(-1.0)},
                                       {"mild", lambda_scenario(-0.5)},
                                       {"strong", lambda_scenario(-2.0)}}}};
}

}  // namespace

TEST(ScenarioComponent, WorstBaseAndBestCaseOfTheExponential) {
  auto c = exponential_scenario();
  c.emplace_back("better", "lower");
  const auto m = evaluate_scenario(c);
  // ode45 at rtol 1e-12: ~1e-11 relative.
  EXPECT_NEAR(measure(m, "base_case"), 3 * std::exp(-2.0), 1e-10);
  EXPECT_NEAR(measure(m, "worst_case"), 3 * std::exp(-1.0), 1e-10);  // mild decays least
  EXPECT_NEAR(measure(m, "best_case"), 3 * std::exp(-4.0), 1e-10);
  EXPECT_EQ(measure(m, "worst_scenario"), 1.0);  // file order: base, mild, strong
  EXPECT_EQ(measure(m, "best_scenario"), 2.0);
  EXPECT_EQ(m.find("switching_to_worst"), nullptr);  // no `switching:` asked for

  c.back().second = "higher";
  const auto h = evaluate_scenario(c);
  EXPECT_EQ(measure(h, "worst_scenario"), 2.0);
  EXPECT_EQ(measure(h, "best_scenario"), 1.0);
}

TEST(ScenarioComponent, SwitchingValuesAreWhereTheMeasureCrossesTheLimit) {
  // 3 e^{2 lambda} = L at lambda* = ln(L / 3) / 2. With L = 0.6 (base 0.406 acceptable,
  // worst 1.10 not): lambda* = -0.8047189562170501, tolerable deviation 0.1952810437829499.
  auto c = exponential_scenario();
  c.emplace_back("switching",
                 fw::Value::Map{{"wrt", "p.lambda"}, {"limit", 0.6}, {"tolerance", 1e-9}});
  const auto m = evaluate_scenario(c);
  const double lambda_star = std::log(0.6 / 3.0) / 2.0;
  // Root to 1e-9 in lambda on a measure accurate to ~1e-11: 1e-8 leaves a margin.
  EXPECT_NEAR(measure(m, "switching_to_worst"), lambda_star, 1e-8);
  EXPECT_NEAR(measure(m, "tolerable_deviation"), lambda_star + 1.0, 1e-8);
  // Towards the best case the measure only gets better: no switching value there.
  EXPECT_EQ(m.find("switching_to_best"), nullptr);

  // With L = 0.1 the base case (0.406) is already beyond the limit: nothing is tolerable,
  // and the switch back to acceptable lies towards the best case (lambda = ln(0.1/3)/2).
  c.back().second = fw::Value::Map{{"wrt", "p.lambda"}, {"limit", 0.1}, {"tolerance", 1e-9}};
  const auto n = evaluate_scenario(c);
  EXPECT_EQ(measure(n, "tolerable_deviation"), 0.0);
  EXPECT_EQ(n.find("switching_to_worst"), nullptr);
  EXPECT_NEAR(measure(n, "switching_to_best"), std::log(0.1 / 3.0) / 2.0, 1e-8);

  // With L = 2 even the worst case is acceptable: the whole way (0.5) is tolerable.
  c.back().second = fw::Value::Map{{"wrt", "p.lambda"}, {"limit", 2.0}};
  EXPECT_NEAR(measure(evaluate_scenario(c), "tolerable_deviation"), 0.5, 1e-15);
}

TEST(ScenarioComponent, ScenariosMayDifferInMoreThanTheSwitchingInput) {
  // The worst case also has a larger x0; the path to it moves lambda alone from the base
  // case (x0 = 3), so the switching value is the same as with x0 fixed.
  auto c = exponential_scenario();
  c[8].second =
      fw::Value::Map{{"base", lambda_scenario(-1.0)},
                     {"mild", fw::Value::Map{{"p.lambda", -0.5}, {"x0", fw::Value::List{4.0}}}}};
  c.emplace_back("switching",
                 fw::Value::Map{{"wrt", "p.lambda"}, {"limit", 0.6}, {"tolerance", 1e-9}});
  const auto m = evaluate_scenario(c);
  EXPECT_NEAR(measure(m, "worst_case"), 4 * std::exp(-1.0), 1e-10);
  EXPECT_NEAR(measure(m, "switching_to_worst"), std::log(0.6 / 3.0) / 2.0, 1e-8);
}

namespace {

// Loads one requirement with the given conditions block (indented by 6 spaces) and returns
// the first error, "" when it loads.
std::string scenario_load_error(const std::string& conditions) {
  const std::string text = R"(requirements:
  - id: SC-1
    title: scenario
    level: system
    component: scenario
    conditions:
      model: exponential
      of: final(x_end)
)" + conditions + R"(
    quality:
      measure: worst_case
      threshold: "<= 1"
)";
  fw::LoadResult result;
  fw::parse_requirements(text, "study.yaml", scenario_registry(), result);
  return result.errors.empty() ? "" : result.errors.front().str();
}

}  // namespace

TEST(ScenarioComponent, MalformedScenariosAreReportedWithTheirLocation) {
  EXPECT_EQ(scenario_load_error("      scenarios: {base: {p.lambda: -1}}"), "");
  // Line 9 is the `scenarios:` line of the document above, column 18 its value.
  EXPECT_EQ(scenario_load_error("      scenarios: {}"),
            "study.yaml:9:18: error: condition 'scenarios': expected a non-empty mapping of "
            "scenarios, e.g. {base: {p.d1: 1500}, worn: {p.d1: 600}}");
  EXPECT_EQ(scenario_load_error("      scenarios: {worn: {p.lambda: -1}}"),
            "study.yaml:9:18: error: condition 'scenarios': no scenario named 'base' (the base "
            "case, Def 4.26)");
  const std::string unknown =
      scenario_load_error("      scenarios: {base: {}, worn: {p.lamda: -1}}");
  EXPECT_NE(
      unknown.find("study.yaml:9:18: error: conditions (model: exponential, scenarios: {base: {}, "
                   "worn: {p.lamda: -1}}): model 'exponential' has no parameter 'lamda' (did you "
                   "mean 'lambda'?); its parameters: lambda"),
      std::string::npos)
      << unknown;
  EXPECT_NE(
      scenario_load_error("      scenarios: {base: {wrt: 1}}").find("'wrt' is not a condition"),
      std::string::npos);
  EXPECT_NE(scenario_load_error("      scenarios: {base: {}}\n      better: smaller")
                .find("study.yaml:10:15: error: condition 'better': expected lower or higher"),
            std::string::npos);
  EXPECT_NE(scenario_load_error("      scenarios: {base: {}}\n      switching: {wrt: p.lambda}")
                .find("study.yaml:10:18: error: condition 'switching': switching needs wrt"),
            std::string::npos);
  EXPECT_NE(
      scenario_load_error("      scenarios: {base: {}}\n      switching: {wrt: p.lamda, limit: 1}")
          .find("study.yaml:10:18: error: conditions (model: exponential, scenarios: "
                "{base: {}}, switching: {wrt: p.lamda, limit: 1}): model 'exponential' has "
                "no parameter 'lamda' (did you mean 'lambda'?)"),
      std::string::npos);
  EXPECT_NE(scenario_load_error(
                "      scenarios: {base: {}}\n      switching: {wrt: p.lambda, limit: 1, by: 2}")
                .find("unknown key 'by'; known: wrt, limit, tolerance"),
            std::string::npos);
  EXPECT_NE(
      scenario_load_error("      scenarios: {base: {}}\n      switching: {wrt: p.lambda, limt: 1}")
          .find("unknown key 'limt' (did you mean 'limit'?); known: wrt, limit, tolerance"),
      std::string::npos);
}
