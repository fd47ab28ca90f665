// The units a requirement's names carry (component.hpp, Units): what the runner writes to
// results.json for the report's axes and tables, from the models' declarations.
#include "component_test_support.hpp"

#include <simverify/framework/loader.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace fw = simverify::framework;
using simverify::components::testing::builtin_registry;

namespace {

// `quality` is the requirement's quality as a YAML flow mapping.
fw::UnitMap units_with(const std::string& conditions, const std::string& quality) {
  fw::LoadResult loaded;
  fw::parse_requirements(R"(requirements:
  - id: UNITS
    title: units
    level: integration
    component: simulate
    conditions:
)" + conditions + R"(
    quality: )" + quality + "\n",
                         "units.yaml", builtin_registry(), loaded);
  EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.errors.front().str());
  if (!loaded.ok()) return {};
  const fw::Component* simulate = builtin_registry().find("simulate");
  return simulate->units(loaded.requirements.front());
}

fw::UnitMap units_of(const std::string& conditions, const std::string& measure) {
  return units_with(conditions, "{measure: \"" + measure + "\", threshold: \"<= 100\"}");
}

std::string unit(const fw::UnitMap& units, const std::string& name) {
  const auto it = units.find(name);
  return it == units.end() ? "<none>" : it->second;
}

TEST(ModelUnits, NamesOfABuiltInModelCarryItsDeclaredUnits) {
  const auto units = units_of("      model: quarter_car\n      tf: 1.0\n      p.s1: [1.5e4, 2.5e4]",
                              "rms(y.chassis_acceleration)");
  EXPECT_EQ(unit(units, "rms(y.chassis_acceleration)"), "m/s^2");  // rms keeps the unit
  EXPECT_EQ(unit(units, "y.chassis_acceleration"), "m/s^2");
  EXPECT_EQ(unit(units, "y.dynamic_tyre_load"), "N");
  EXPECT_EQ(unit(units, "x.y1"), "m");
  EXPECT_EQ(unit(units, "p.s1"), "N/m");
  EXPECT_EQ(unit(units, "tf"), "s");
  EXPECT_EQ(unit(units, "t"), "s");
  // The states mix m and m/s: x_end has no one unit.
  EXPECT_EQ(unit(units, "x_end"), "<none>");
}

TEST(ModelUnits, StepResponseMeasuresArePercentTimesOrTheOutputsUnit) {
  const std::string model = "      model: spring_mass_damper\n      tf: 1.0";
  EXPECT_EQ(unit(units_of(model, "overshoot(y.y)"), "overshoot(y.y)"), "%");
  EXPECT_EQ(unit(units_of(model, "undershoot(y.y)"), "undershoot(y.y)"), "%");
  EXPECT_EQ(unit(units_of(model, "settling_time(y.y, 0.05)"), "settling_time(y.y, 0.05)"), "s");
  EXPECT_EQ(unit(units_of(model, "rise_time(y.y)"), "rise_time(y.y)"), "s");
  EXPECT_EQ(unit(units_of(model, "peak_time(y.v)"), "peak_time(y.v)"), "s");
  EXPECT_EQ(unit(units_of(model, "peak(y.v)"), "peak(y.v)"), "m/s");
  EXPECT_EQ(unit(units_of(model, "max(y.y)"), "max(y.y)"), "m");
  EXPECT_EQ(unit(units_of(model, "steady_state_error(y.y, 1)"), "steady_state_error(y.y, 1)"), "m");
}

TEST(ModelUnits, ANameWhoseUnitDiffersBetweenTheGridsModelsHasNone) {
  // harmonic_oscillator's x is a position in m, exponential's x a pure number.
  const auto units =
      units_of("      model: [harmonic_oscillator, exponential]\n      tf: 1.0", "final(x_end)");
  EXPECT_EQ(unit(units, "x.x"), "<none>");
  EXPECT_EQ(unit(units, "t_end"), "s");  // both run in seconds
  EXPECT_EQ(unit(units, "final(x_end)"), "<none>");
}

TEST(ModelUnits, AMaxRelComparisonIsAPureNumber) {
  const std::string model = "      model: harmonic_oscillator\n      tf: 1.0";
  const auto relative = units_with(
      model,
      "{measure: x_end, compare: {reference: [1.0, 0.0], norm: max_rel}, threshold: \"<= 1\"}");
  EXPECT_EQ(unit(relative, "x_end"), "1");
  // In max_abs the distance has the states' unit, and x (m) and v (m/s) share none.
  const auto absolute = units_with(
      model,
      "{measure: x_end, compare: {reference: [1.0, 0.0], norm: max_abs}, threshold: \"<= 1\"}");
  EXPECT_EQ(unit(absolute, "x_end"), "<none>");
}

TEST(ModelUnits, AnFmuGivesTheUnitsOfItsModelDescription) {
  const auto fmu = std::filesystem::path(SIMVERIFY_TEST_FMU_DIR) / "fmi3" / "BouncingBall.fmu";
  const auto units = units_of("      model: " + fmu.string() + "\n      tf: 1.0", "final(y.h)");
  EXPECT_EQ(unit(units, "x.h"), "m");
  EXPECT_EQ(unit(units, "x.v"), "m/s");
  EXPECT_EQ(unit(units, "y.h"), "m");
  EXPECT_EQ(unit(units, "p.g"), "m/s2");
  EXPECT_EQ(unit(units, "final(y.h)"), "m");
  EXPECT_EQ(unit(units, "p.e"), "<none>");  // declared without a unit
}

}  // namespace

namespace {

// A Monte Carlo study's statistics are in the unit of the measure it samples.
TEST(ModelUnits, MonteCarloStatisticsTakeTheUnitOfTheSampledMeasure) {
  fw::LoadResult loaded;
  fw::parse_requirements(R"(requirements:
  - id: UNITS-MC
    title: units of a study
    level: system
    component: monte_carlo
    conditions:
      model: constrained_pendulum
      variant: nonlinear
      method: ode45
      tf: 1.0
      reference: none
      runs: 4
      perturb: {p.phi_pin: {uniform: [-0.27, -0.25]}}
      of: final(event_times)
    quality: {measure: q95, threshold: "<= 0.72"}
)",
                         "units.yaml", builtin_registry(), loaded);
  ASSERT_TRUE(loaded.ok()) << loaded.errors.front().str();
  const auto units = builtin_registry().find("monte_carlo")->units(loaded.requirements.front());
  EXPECT_EQ(unit(units, "final(event_times)"), "s");
  for (const char* statistic : {"q95", "mean", "std", "samples", "ci_upper"}) {
    EXPECT_EQ(unit(units, statistic), "s") << statistic;
  }
  EXPECT_EQ(unit(units, "p.phi_pin"), "rad");
  EXPECT_EQ(unit(units, "drawn.p.phi_pin"), "rad");  // the drawn inputs, in the input's unit
}

}  // namespace
