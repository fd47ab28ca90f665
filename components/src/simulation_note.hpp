#pragma once
// Internal: what a simulation notes about its grid point (framework/point_note.hpp), so a point
// killed at --timeout (or crashing its worker) says how far it got, not only that it timed out:
// t reached of tf, the steps taken, the last step size, and, when an explicit adaptive method's
// steps had shrunk to a sliver of the horizon, a stiff method, as MATLAB's warnings hint.
#include <simverify/simulation/simulator.hpp>

#include <cstddef>
#include <string>

namespace simverify::components {

// An explicit method's step bounded by stability below this fraction of the horizon is taken
// for a collapse: a non-stiff run over the whole horizon at such steps needs a million of them.
inline constexpr double kCollapsedStep = 1e-6;

struct SimulationProgress {
  std::string method;
  bool explicit_adaptive = false;  // the method sizes its own steps and is explicit
  double t0 = 0.0, tf = 0.0;
  double t = 0.0;         // where the last accepted step ended
  std::size_t steps = 0;  // accepted steps so far
  double h = 0.0;         // the last accepted step's size
};

// "the simulation had reached t = 12.5 of tf = 1000 (1.25 %) in 81920 steps of ode45, the
// last h = 0.00032; ..." with the stiff hint when explicit_adaptive and h < kCollapsedStep of
// the horizon.
[[nodiscard]] std::string simulation_progress_note(const SimulationProgress& p);

// Sets settings.on_step, where something reads the point's progress (a worker process, or a
// pool thread of --isolation none): reports simulated time over the horizon to the console's
// bar, and, when the run has a --timeout, notes how far the run got every few steps.
void observe_simulation_progress(simulation::SimulatorSettings& settings, double timeout_seconds);

}  // namespace simverify::components
