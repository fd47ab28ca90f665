#pragma once
// Alg 7: model + method + settings -> trajectory, endpoint, events, statistics.
//
// Step loop (one segment [t_a, t_b]; fixed-step methods step on t_a + n h, adaptive ones
// choose their own h <= max_step):
//   initialize the stepper at (t_a, x)                  -- FSAL and dense output restart
//   while t < t_b:
//     attempt a step from (t, x); if rejected: shrink h and retry (nothing is recorded)
//     if events are on: sample g_i on the dense output of [t, t + h] (events.hpp); at the
//       earliest located crossing t_e: record outputs in (t, t_e], apply on_event
//       (state reset, parameter change, mode switch), stop when terminal or Zeno,
//       else re-initialize the stepper at (t_e, x+) and continue
//     record accepted steps and/or the requested output times in (t, t + h] (dense output)
// Without a sample time the run is one segment [t0, tf]. With sample_time T (Def 3.38,
// Alg 6) the segments are the sampling intervals [t0 + k T, t0 + (k+1) T]: the input is
// held at u(t0 + k T) over each (zero-order hold, Remark 3.37), fixed-step methods take
// h = T / i inner steps (h must divide T), and the trajectory holds the sampling instants.
#include <simverify/simulation/events.hpp>
#include <simverify/simulation/input_signal.hpp>
#include <simverify/simulation/model.hpp>
#include <simverify/simulation/trajectory.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace simverify::simulation {

class Stepper;

// Sees every accepted step [t_start, t_end] (cut at an event when one occurs) while the
// stepper's dense output still covers it: quadrature of cost functionals (Def 2.16) and
// other per-step processing without storing the trajectory.
using StepObserver = std::function<void(double t_start, double t_end, const Stepper& dense)>;

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
  bool record_outputs = false;  // also y = h(t, x, u, p) at every recorded time
  // Non-empty: record the trajectory at exactly these times (increasing, within [t0, tf])
  // from the stepper's dense output instead of at every accepted step.
  std::vector<double> output_times;
  double sample_time = 0.0;  // multiscale sampling time T (Def 3.38); 0: off
  EventSettings events;
  StepObserver on_step;  // optional
};

class Simulator {
 public:
  Simulator(const Model& model, SimulatorSettings settings);

  [[nodiscard]] SimulatorResult run() const;

  [[nodiscard]] const Model& model() const { return *model_; }
  [[nodiscard]] const SimulatorSettings& settings() const { return settings_; }
  // The parameter vector this simulator starts with (defaults with overrides applied); a
  // run works on its own copy, so events changing parameters leave this untouched.
  [[nodiscard]] const std::vector<double>& parameters() const { return parameters_; }
  [[nodiscard]] Vector initial_state() const;

 private:
  const Model* model_;
  SimulatorSettings settings_;
  std::vector<double> parameters_;
  bool fixed_step_ = false;  // the method steps on a fixed grid (looked up once, here)
};

}  // namespace simverify::simulation
