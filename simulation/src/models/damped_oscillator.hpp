#pragma once
// Internal: the free linear oscillator z'' + 2 alpha z' + omega0^2 z = 0 in closed form, shared
// by the exact solutions of harmonic_oscillator, spring_mass_damper and the linear
// constrained_pendulum (continuous-models slides, ch. 4.3 Federpendel: y(t) = y0 cos(w t) + v0 / w
// sin(w t)).
namespace simverify::simulation::models::detail {

struct OscillatorState {
  double z = 0.0;
  double dz = 0.0;
};

// (z, z') a time tau after (z0, dz0), for every damping regime (alpha >= 0 or < 0 alike).
[[nodiscard]] OscillatorState damped_oscillator(double tau, double z0, double dz0, double alpha,
                                                double omega0_squared);

}  // namespace simverify::simulation::models::detail
