// Simulation (Alg 8): parallel runs equal serial runs, in setting order; data dumps (Def 4.8).
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulation.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace sim = simverify::simulation;

namespace {

sim::Simulation pendulum_grid(const sim::Model& model) {
  sim::SimulatorSettings base;
  base.method = "ode45";
  base.stepper.rtol = 1e-8;
  base.tf = 5.0;
  std::vector<sim::RunSetting> runs;
  for (int i = 0; i < 12; ++i) {
    sim::RunSetting r;
    r.x0 = sim::Vector{{0.1 + 0.04 * i, 0.0}};
    r.parameters = {{"d", 0.05 * i}};
    runs.push_back(r);
  }
  return {model, base, runs};
}

}  // namespace

TEST(Simulation, ParallelRunsEqualSerialRunsInSettingOrder) {
  const auto model = sim::make_model("constrained_pendulum", "nonlinear");
  const auto simulation = pendulum_grid(*model);
  const auto serial = simulation.run(1);
  const auto parallel = simulation.run(4);
  ASSERT_EQ(serial.runs.size(), 12U);
  ASSERT_EQ(parallel.runs.size(), 12U);
  for (std::size_t j = 0; j < serial.runs.size(); ++j) {
    // Bitwise: each run is the same deterministic computation on its own state.
    EXPECT_EQ(serial.runs[j].x_end, parallel.runs[j].x_end) << j;
    EXPECT_EQ(serial.runs[j].trajectory.time, parallel.runs[j].trajectory.time) << j;
    EXPECT_EQ(serial.runs[j].events.size(), parallel.runs[j].events.size()) << j;
    // Setting order: run j started from its own x0.
    EXPECT_EQ(parallel.runs[j].trajectory.states.front()[0], 0.1 + 0.04 * static_cast<double>(j));
  }
}

TEST(Simulation, SettingsOverrideTheBase) {
  const auto model = sim::make_model("exponential");
  sim::SimulatorSettings base;
  base.tf = 1.0;
  base.stepper.rtol = 1e-8;
  sim::RunSetting shifted;
  shifted.t0 = 2.0;
  shifted.parameters = {{"lambda", -2.0}};
  const sim::Simulation simulation(*model, base, {sim::RunSetting{}, shifted});
  const auto s = simulation.settings_for(1);
  EXPECT_EQ(s.t0, 2.0);
  EXPECT_EQ(s.tf, 3.0);
  const auto r = simulation.run(2);
  EXPECT_NEAR(r.runs[0].x_end[0], std::exp(-1.0), 1e-5);
  EXPECT_NEAR(r.runs[1].x_end[0], std::exp(-2.0), 1e-5);
}

TEST(Simulation, AFailingRunNamesItsIndex) {
  const auto model = sim::make_model("exponential");
  sim::RunSetting bad;
  bad.parameters = {{"mu", 1.0}};
  const sim::Simulation simulation(*model, {}, {sim::RunSetting{}, bad});
  EXPECT_THROW((void)simulation.run(2), std::invalid_argument);
}

TEST(Simulation, CsvAndJsonDumpsHoldEveryRecordedPoint) {
  const auto model = sim::make_model("constrained_pendulum", "linear");
  const auto replication = pendulum_grid(*model).run(2);
  const auto dir = std::filesystem::temp_directory_path() / "simverify_simulation_test";
  std::filesystem::create_directories(dir);
  sim::write_csv(replication, dir / "r.csv");
  sim::write_json(replication, dir / "r.json");

  std::ifstream csv(dir / "r.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header, "run,t,phi,v");
  std::size_t rows = 0;
  std::string line;
  std::string last;
  while (std::getline(csv, line)) {
    ++rows;
    last = line;
  }
  std::size_t expected = 0;
  for (const auto& r : replication.runs) expected += r.trajectory.size();
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(last.substr(0, 3), "11,");

  std::ifstream json(dir / "r.json");
  const std::string text((std::istreambuf_iterator<char>(json)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("{\"format\":\"simverify.replication/1\"", 0), 0U);
  EXPECT_NE(text.find("\"name\":\"hit\""), std::string::npos);
  std::filesystem::remove_all(dir);
}
