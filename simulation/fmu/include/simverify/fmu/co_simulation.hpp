#pragma once
// An FMU's co-simulation interface (FMI 2.0 chapter 4, FMI 3.0 chapter 4): the FMU integrates
// itself; simverify sets its inputs at each communication point t_k = t0 + k h, calls doStep
// over [t_k, t_k + h] (the last step ends at tf) and records the Real outputs at every
// communication point. An FMU that ends the simulation (fmi2Discard with fmi2Terminated,
// FMI 3.0 terminateSimulation) ends the run where it got to.
#include <simverify/fmu/fmu.hpp>
#include <simverify/fmu/inputs.hpp>
#include <simverify/fmu/log_observer.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace simverify::fmu {

struct CoSimulationSettings {
  double t0 = 0.0;
  double tf = 1.0;
  double step = 0.0;                // communication step h; 0: the DefaultExperiment's stepSize
  std::optional<double> tolerance;  // for the FMU's own solver (setupExperiment / 3.0 init)
  std::vector<std::pair<std::string, double>> parameters;  // by name; the rest keep start values
  NamedInputs inputs;                                      // inputs by name (inputs.hpp)
  simulation::InputPtr input;                              // u of a one-input FMU
  LogObserver on_log;                                      // optional
};

struct CoSimulationResult {
  std::vector<double> time;                 // the communication points reached, t0 first
  std::vector<std::string> outputs;         // the FMU's Real outputs by name
  std::vector<std::vector<double>> values;  // values[j][k]: outputs[j] at time[k]
  double t_end = 0.0;
  long steps = 0;
  bool terminated = false;  // the FMU ended the run before tf
  std::string message;      // why, when terminated
};

// The checks of the settings alone, made before anything runs (also by `simverify validate`):
// the FMU has a co-simulation interface, a communication step is known (`step` or the
// DefaultExperiment's stepSize), t0 < tf (both finite), the run takes at most 1e8 steps, and
// a tolerance, when given, is a finite number > 0. Throws FmuError saying which.
void check_co_simulation_settings(const Fmu& fmu, const CoSimulationSettings& settings);

// Throws FmuError when check_co_simulation_settings does, a parameter or input name is
// unknown, or a call fails (with the FMU's log messages).
[[nodiscard]] CoSimulationResult run_co_simulation(std::shared_ptr<const Fmu> fmu,
                                                   const CoSimulationSettings& settings);

// The communication step a run uses: `step` when positive, else the FMU's DefaultExperiment
// stepSize; nothing when neither is known.
[[nodiscard]] std::optional<double> communication_step(const ModelDescription& description,
                                                       double step);

}  // namespace simverify::fmu
