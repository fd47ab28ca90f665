#pragma once
// Alg 7: model + method + settings -> trajectory, endpoint, events, statistics.
//
// Step loop (fixed-step methods take h = settings.h; adaptive ones choose their own):
//   x = x0, t = t0
//   while t < tf:
//     attempt a step of size min(h, tf - t) from (t, x)
//     if rejected: shrink h and retry
//     record (t + h, x_new) -- accepted steps only
//     t, x = t + h, x_new
#include <simverify/simulation/input_signal.hpp>
#include <simverify/simulation/model.hpp>
#include <simverify/simulation/trajectory.hpp>

#include <string>
#include <utility>
#include <vector>

namespace simverify::simulation {

struct SimulatorSettings {
  std::string method = "ode45";
  double t0 = 0.0;
  double tf = 1.0;
  Vector x0;                // empty: the model's default initial state
  double h = 0.0;           // fixed step size; initial step for adaptive methods (0: auto)
  StepperSettings stepper;  // tolerances and step control of adaptive/implicit methods
  std::vector<std::pair<std::string, double>> parameters;  // overrides of model defaults
  InputPtr input;                                          // u(.); zero when empty
  bool record_trajectory = true;
};

class Simulator {
 public:
  Simulator(const Model& model, SimulatorSettings settings);

  [[nodiscard]] SimulatorResult run() const;

  [[nodiscard]] const SimulatorSettings& settings() const { return settings_; }
  // The parameter vector this simulator runs with (defaults with overrides applied).
  [[nodiscard]] const std::vector<double>& parameters() const { return parameters_; }
  [[nodiscard]] Vector initial_state() const;

 private:
  const Model* model_;
  SimulatorSettings settings_;
  std::vector<double> parameters_;
};

}  // namespace simverify::simulation
