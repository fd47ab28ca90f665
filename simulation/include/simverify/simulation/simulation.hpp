#pragma once
// Alg 8: a simulation runs one simulator configuration over a set of parameter settings
// (t0, x0, u, p) and collects the outputs into a replication (Def 4.6), which a data dump
// (Def 4.8) hands to other programs as CSV or JSON.
//
//   Simulation sim(model, base_settings, {{.t0 = 0, .x0 = x_a}, {.parameters = {{"k", 2}}}});
//   Replication r = sim.run(/*jobs=*/4);   // runs in parallel, results in setting order
//   write_csv(r, "out.csv");
#include <simverify/simulation/simulator.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace simverify::simulation {

// One element of the parameter set T x X x U^T x P; unset fields keep the base settings.
struct RunSetting {
  std::optional<double> t0;
  Vector x0;                                               // empty: base x0
  InputPtr input;                                          // null: base input
  std::vector<std::pair<std::string, double>> parameters;  // applied after the base ones
};

// Def 4.6: the outputs x_j(t_i) of every run j, in the order of the settings.
struct Replication {
  std::string model;
  std::vector<std::string> state_names;
  std::vector<RunSetting> settings;
  std::vector<SimulatorResult> runs;
};

class Simulation {
 public:
  // The model is shared read-only by all runs; each run has its own state and parameters.
  Simulation(const Model& model, SimulatorSettings base, std::vector<RunSetting> runs);

  // jobs threads (0: std::thread::hardware_concurrency()). The result does not depend on
  // jobs. A run that throws makes run() rethrow the error of the first failing setting,
  // prefixed with its index, after all threads have finished.
  [[nodiscard]] Replication run(unsigned jobs = 0) const;

  [[nodiscard]] std::size_t size() const { return runs_.size(); }
  // The complete simulator settings of run j (base with the setting applied).
  [[nodiscard]] SimulatorSettings settings_for(std::size_t j) const;

 private:
  const Model* model_;
  SimulatorSettings base_;
  std::vector<RunSetting> runs_;
};

// Def 4.8 data dumps. CSV: a header `run,t,<state names>` and one row per recorded point,
// runs in order, numbers with 17 significant digits (round-trip exact). JSON:
// {"format": "simverify.replication/1", "model", "states": [...], "runs": [{"run", "status",
//  "t_end", "x_end", "time": [...], "states": [[...], ...], "events": [{"time", "index",
//  "name"}], "statistics": {...}}]}. Both write to a temporary file and rename it, so a
// reader never sees half a dump; errors throw std::runtime_error naming the path.
void write_csv(const Replication& replication, const std::filesystem::path& path);
void write_json(const Replication& replication, const std::filesystem::path& path);

}  // namespace simverify::simulation
