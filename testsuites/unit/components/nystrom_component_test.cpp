// Runge-Kutta-Nystrom methods in requirement files: a model without x'' = g(t, q) is refused
// at load time naming the methods that fit, and the `step` component measures their local
// error like any method's.
#include "component_test_support.hpp"

#include <simverify/framework/loader.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace fw = simverify::framework;
using simverify::components::testing::builtin_registry;
using simverify::components::testing::evaluate;
using simverify::components::testing::measure;

namespace {

std::string nystrom_load_error(const std::string& conditions) {
  const std::string text = R"(requirements:
  - id: NYSTROM-1
    title: Nystrom
    level: integration
    component: simulate
    conditions:
)" + conditions + R"(
    quality: {measure: error_end, threshold: "<= 1"}
)";
  fw::LoadResult result;
  fw::parse_requirements(text, "nystrom.yaml", builtin_registry(), result);
  return result.errors.empty() ? "" : result.errors.front().str();
}

TEST(NystromConditions, ModelsWithoutTheStructureAreRefusedAtLoadTime) {
  EXPECT_EQ(
      nystrom_load_error("      model: [harmonic_oscillator, spring_pendulum, vertical_throw]\n"
                         "      method: [rkn4, rkn64]\n      h: 0.01"),
      "");
  const std::string refused = nystrom_load_error("      model: van_der_pol\n      method: rkn64");
  EXPECT_NE(refused.find("nystrom.yaml:"), std::string::npos) << refused;
  EXPECT_NE(refused.find("model 'van_der_pol' does not declare that structure"), std::string::npos)
      << refused;
  EXPECT_NE(refused.find("Methods that fit: "), std::string::npos) << refused;
  const std::string drag = nystrom_load_error(
      "      model: vertical_throw\n      method: rkn4\n      h: 0.1\n      p.drag: 0.3");
  EXPECT_NE(drag.find("drag = 0.3 makes y'' = -g - drag v depend on v"), std::string::npos) << drag;
  EXPECT_EQ(
      nystrom_load_error("      model: spring_mass_damper\n      method: rkn64\n      p.d: 0"), "");
  EXPECT_NE(
      nystrom_load_error("      model: spring_mass_damper\n      method: rkn64").find("d = 2"),
      std::string::npos);
}

// One step of rkn4 from the exact solution of the harmonic oscillator: local error
// O(h^5), so halving h divides it by 32 (slope 5 within 0.2).
TEST(NystromConditions, StepComponentMeasuresTheLocalOrder) {
  const auto local_error = [](double h) {
    return measure(
        evaluate("step", {{"model", "harmonic_oscillator"}, {"method", "rkn4"}, {"h", h}}),
        "local_error");
  };
  const double slope = std::log(local_error(0.02) / local_error(0.01)) / std::log(2.0);
  EXPECT_NEAR(slope, 5.0, 0.2);
  // Three evaluations of g for the step.
  EXPECT_EQ(
      measure(evaluate("step", {{"model", "harmonic_oscillator"}, {"method", "rkn4"}, {"h", 0.01}}),
              "f_evals"),
      3.0);
}

}  // namespace
