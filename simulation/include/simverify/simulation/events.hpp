#pragma once
// Zero-crossing events (ARGESIM C7 hit/release; MATLAB/CVODE semantics): how the
// Simulator detects, locates and guards the event functions g_i(t, x) a Model declares.
//
// Detection: after every accepted step [t_a, t_b] each g_i is sampled on the stepper's dense
// output at t_a, `interior_samples` equally spaced interior points, and t_b. A sign change
// between neighbouring samples that matches the event's direction (+1 rising, -1 falling,
// 0 either) brackets a crossing, so two crossings inside one step are both seen as long as
// a sample falls between them. A value that is exactly 0 at t_a does not count as a
// crossing (the run just restarted on the switching surface).
// Location: Illinois regula falsi on the dense output until the bracket is no wider than
// time_tolerance * max(1, |t|); the event time reported is the bracket's right end, where
// g has already crossed, so the restarted run does not detect the same crossing again.
// Several events located within that tolerance of the earliest fire together, in index order.
namespace simverify::simulation {

struct EventSettings {
  bool enabled = true;
  double time_tolerance = 1e-12;  // relative width of the final bracket
  int interior_samples = 4;       // dense-output samples inside each step (0: ends only)
  // Zeno guard: when `zeno_events` consecutive events fit into a time window of width
  // zeno_window * max(1, tf - t0), the run stops (RunStatus::zeno) instead of chattering.
  // Chattering guard (same count): zeno_events consecutive state events each in a sliding
  // mode (the actions left the state unchanged and f then carries the fired g straight back
  // across its surface: Filippov's condition) end the run with std::runtime_error.
  int zeno_events = 20;
  double zeno_window = 1e-6;
};

}  // namespace simverify::simulation
