// Alg 8: the runs of a simulation on a std::jthread pool. Each worker takes the next
// unclaimed index from an atomic counter and writes only its own slot, so the replication
// is in setting order whatever the number of threads (Table 4.1: parallel runs).
#include <simverify/simulation/simulation.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <stdexcept>
#include <thread>

namespace simverify::simulation {

Simulation::Simulation(const Model& model, SimulatorSettings base, std::vector<RunSetting> runs)
    : model_(&model), base_(std::move(base)), runs_(std::move(runs)) {}

SimulatorSettings Simulation::settings_for(std::size_t j) const {
  SimulatorSettings s = base_;
  const RunSetting& r = runs_.at(j);
  if (r.t0) {
    const double shift = *r.t0 - s.t0;
    s.t0 = *r.t0;
    s.tf += shift;  // the same horizon from a shifted start
  }
  if (r.x0.size() != 0) s.x0 = r.x0;
  if (r.input) s.input = r.input;
  s.parameters.insert(s.parameters.end(), r.parameters.begin(), r.parameters.end());
  return s;
}

Replication Simulation::run(unsigned jobs) const {
  Replication replication;
  replication.model = model_->info().name;
  replication.state_names = model_->info().states;
  replication.settings = runs_;
  replication.runs.resize(runs_.size());
  std::vector<std::exception_ptr> errors(runs_.size());

  // Validation (unknown parameters, bad x0) happens here, serially, before any thread starts.
  std::vector<Simulator> simulators;
  simulators.reserve(runs_.size());
  for (std::size_t j = 0; j < runs_.size(); ++j) simulators.emplace_back(*model_, settings_for(j));

  if (jobs == 0) jobs = std::max(1U, std::thread::hardware_concurrency());
  const auto threads = std::min<std::size_t>(jobs, runs_.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t j = next++; j < runs_.size(); j = next++) {
      try {
        replication.runs[j] = simulators[j].run();
      } catch (...) {
        errors[j] = std::current_exception();
      }
    }
  };
  {
    std::vector<std::jthread> pool;
    pool.reserve(threads);
    for (std::size_t i = 0; i < threads; ++i) pool.emplace_back(worker);
  }  // jthreads join here
  for (std::size_t j = 0; j < errors.size(); ++j) {
    if (!errors[j]) continue;
    try {
      std::rethrow_exception(errors[j]);
    } catch (const std::exception& e) {
      throw std::runtime_error("simulation run " + std::to_string(j) + ": " + e.what());
    }
  }
  return replication;
}

}  // namespace simverify::simulation
