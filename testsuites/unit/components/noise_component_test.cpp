// The `noise` input of requirement files: its stream per (requirement id, axis, seed), the
// sampling it implies, and its load-time errors.
#include "component_test_support.hpp"
#include "input_conditions.hpp"

#include <simverify/framework/loader.hpp>
#include <simverify/simulation/input_signal.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace fw = simverify::framework;
namespace sc = simverify::components;
using sc::testing::builtin_registry;

namespace {

std::string requirement(const std::string& id, const std::string& conditions,
                        const std::string& model = "ornstein_uhlenbeck\n      p.a: 0") {
  return "  - id: " + id + R"(
    title: noise
    level: integration
    component: simulate
    conditions:
      model: )" +
         model + R"(
      method: rk4
      h: 0.1
      tf: 1.0
)" + conditions +
         R"(
    quality: {measure: final(x_end), threshold: "<= 100"}
)";
}

fw::LoadResult load(const std::string& requirements) {
  fw::LoadResult result;
  fw::parse_requirements("requirements:\n" + requirements, "noise.yaml", builtin_registry(),
                         result);
  return result;
}

double x_end(const fw::Requirement& r) {
  const fw::Component* simulate = builtin_registry().find("simulate");
  const fw::PointContext context{.requirement = &r, .index = 0, .seed = 0};
  const auto m = simulate->measure(r.conditions.point(0), context);
  return std::get<std::vector<double>>(*m.find("x_end")).at(0);
}

TEST(NoiseCondition, DrawsFromTheStreamOfRequirementAxisAndSeed) {
  const std::string u = "      u: {noise: {std: 1.0, hold: 0.1, seed: 3}}";
  const auto loaded = load(requirement("NOISE-A", u) + requirement("NOISE-B", u));
  ASSERT_TRUE(loaded.ok()) << loaded.errors.front().str();
  const auto& a = loaded.requirements[0];
  const auto& b = loaded.requirements[1];
  // x' = u integrates the held draws exactly: x(1) = 0.1 sum_k nu_k over the 10 intervals of
  // the stream (NOISE-A, u, 3).
  const auto noise = simverify::simulation::noise_input(
      0.0, 1.0, 0.1, sc::noise_stream({.requirement = "NOISE-A", .axis = "u"}, 3));
  double expected = 0.0;
  for (int k = 0; k < 10; ++k) expected += 0.1 * noise->at(0.1 * k).value;
  EXPECT_NEAR(x_end(a), expected, 1e-13);
  EXPECT_EQ(x_end(a), x_end(a));
  EXPECT_NE(x_end(a), x_end(b));  // same seed, another requirement: another stream
  EXPECT_NE(sc::noise_stream({.requirement = "R", .axis = "u.force"}, 3),
            sc::noise_stream({.requirement = "R", .axis = "u.torque"}, 3));
  EXPECT_NE(sc::noise_stream({.requirement = "R", .axis = "u"}, 3),
            sc::noise_stream({.requirement = "R", .axis = "u"}, 4));
}

// x(1) of x' = nu, nu held over the 10 intervals of 0.1 s of the stream (requirement, axis, 3).
double integrated_draws(std::string_view requirement, std::string_view axis) {
  const auto noise = simverify::simulation::noise_input(
      0.0, 1.0, 0.1, sc::noise_stream({.requirement = requirement, .axis = axis}, 3));
  double sum = 0.0;
  for (int k = 0; k < 10; ++k) sum += 0.1 * noise->at(0.1 * k).value;
  return sum;
}

// A diagram's inport and an FMU's input are keyed like the built-in models' u: by requirement
// id, axis and seed. Both models here integrate their input (x' = force, x' = u1).
TEST(NoiseCondition, DiagramAndFmuInputsDrawFromTheirRequirementsStream) {
  const auto dir = std::filesystem::temp_directory_path() / "simverify_noise_component_test";
  std::filesystem::create_directories(dir);
  const auto diagram = dir / "integrate.yaml";
  std::ofstream(diagram) << R"(diagram:
  blocks:
    force: {type: inport}
    x: {type: integrator}
  connections:
    - [force, x]
)";
  const auto fmu = std::filesystem::path(SIMVERIFY_TEST_FMU_DIR) / "fmi2" / "Feedthrough.fmu";
  for (const auto& [model, axis] : {std::pair{diagram.string(), std::string("u.force")},
                                    std::pair{fmu.string(), std::string("u.u1")}}) {
    SCOPED_TRACE(model);
    const std::string u = "      " + axis + ": {noise: {std: 1.0, hold: 0.1, seed: 3}}";
    const auto loaded = load(requirement("NOISE-A", u, model) + requirement("NOISE-B", u, model));
    ASSERT_TRUE(loaded.ok()) << loaded.errors.front().str();
    const double a = x_end(loaded.requirements[0]);
    const double b = x_end(loaded.requirements[1]);
    EXPECT_EQ(a, x_end(loaded.requirements[0]));
    // And they are the drawn sequence, integrated: rk4 integrates a constant exactly, provided
    // every stage of a step sees the draw of its interval, also its last stage at the
    // interval's end (Context::sampled_at). Rounding of ten additions of draws of size ~3
    // (s / sqrt(hold)): 1e-13 is ample; a leaked next draw would cost ~0.05.
    EXPECT_NEAR(a, integrated_draws("NOISE-A", axis), 1e-13);
    EXPECT_NEAR(b, integrated_draws("NOISE-B", axis), 1e-13);
    // Evaluated outside a requirement (the key these inputs had before: no id) the draws
    // are others.
    const fw::Component* simulate = builtin_registry().find("simulate");
    const auto unkeyed = simulate->measure(loaded.requirements[0].conditions.point(0), {});
    EXPECT_NE(a, std::get<std::vector<double>>(*unkeyed.find("x_end")).at(0));
    EXPECT_NE(a, b);  // the same seed in another requirement: another stream
  }
  std::filesystem::remove_all(dir);
}

// The studies built on simulate (here monte_carlo) run their simulations as points of their
// own requirement, so their noise is keyed by it as well.
TEST(NoiseCondition, StudiesKeyTheirRunsNoiseByTheirRequirement) {
  const auto study = [](const std::string& id) {
    return "  - id: " + id + R"(
    title: noise study
    level: integration
    component: monte_carlo
    conditions:
      model: ornstein_uhlenbeck
      p.a: 0
      method: rk4
      h: 0.1
      tf: 1.0
      u: {noise: {std: 1.0, hold: 0.1}}
      runs: 3
      seed: 3
      of: final(x_end)
    quality: {measure: mean, threshold: "<= 100"}
)";
  };
  const auto loaded = load(study("STUDY-A") + study("STUDY-B"));
  ASSERT_TRUE(loaded.ok()) << loaded.errors.front().str();
  const fw::Component* monte_carlo = builtin_registry().find("monte_carlo");
  const auto samples = [&](const fw::Requirement& r) {
    const auto m = monte_carlo->measure(r.conditions.point(0), {.requirement = &r});
    return std::get<std::vector<double>>(*m.find("samples"));
  };
  const auto a = samples(loaded.requirements[0]);
  const auto b = samples(loaded.requirements[1]);
  ASSERT_EQ(a.size(), 3U);
  EXPECT_EQ(a, samples(loaded.requirements[0]));
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NE(a[i], b[i]) << "run " << i;
}

TEST(NoiseCondition, SeedAxisSeedsANoiseWithoutItsOwn) {
  const auto loaded =
      load(requirement("NOISE-S", "      u: {noise: {std: 1.0, hold: 0.1}}\n      seed: [1, 3]"));
  ASSERT_TRUE(loaded.ok()) << loaded.errors.front().str();
  const auto own = load(requirement("NOISE-S", "      u: {noise: {std: 1.0, hold: 0.1, seed: 3}}"));
  ASSERT_TRUE(own.ok());
  const fw::Component* simulate = builtin_registry().find("simulate");
  const auto& r = loaded.requirements[0];
  const auto second = simulate->measure(r.conditions.point(1), {.requirement = &r, .index = 1});
  EXPECT_EQ(std::get<std::vector<double>>(*second.find("x_end")).at(0), x_end(own.requirements[0]));
}

std::string error_of(const std::string& conditions) {
  const auto loaded = load(requirement("NOISE-E", conditions));
  return loaded.ok() ? "" : loaded.errors.front().str();
}

TEST(NoiseCondition, ReportsBadArgumentsAtLoadTime) {
  EXPECT_NE(error_of("      u: {noise: {std: 1.0}}").find("noise needs 'hold'"), std::string::npos);
  EXPECT_NE(error_of("      u: {noise: {std: -1, hold: 0.1}}").find("std must be finite and >= 0"),
            std::string::npos);
  EXPECT_NE(
      error_of("      u: {noise: {std: 1, hold: 0.1, sed: 2}}").find("unknown argument 'sed'"),
      std::string::npos);
  EXPECT_NE(error_of("      u: {noise: {std: 1, hold: 0.1, seed: 1.5}}")
                .find("noise.seed must be a whole number"),
            std::string::npos);
  EXPECT_NE(error_of("      u: {noise: {std: 1, hold: 0.1}, hold: 0.2}").find("its own 'hold'"),
            std::string::npos);
  EXPECT_NE(error_of("      u: {noise: {std: 1, hold: 0.1}}\n      sample_time: 0.03")
                .find("sample_time must be hold / n"),
            std::string::npos);
  // h = 0.1 is also a whole number of sampling intervals (Def 3.38) only for sample_time 0.1.
  EXPECT_EQ(error_of("      u: {noise: {std: 1, hold: 0.1}}\n      sample_time: 0.1"), "");
}

}  // namespace
