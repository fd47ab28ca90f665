#pragma once
// Test support for the solver tests: a minimal step loop over the Stepper interface (the same
// contract the Simulator relies on: initial_step when h == 0, attempt, accepted/next_step,
// max_step clamp), so solver tests do not depend on the Simulator's other features.
#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/stepper.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace simverify::simulation::testing {

struct DriverResult {
  Vector x_end;
  long accepted = 0;
  long rejected = 0;
  double max_accepted_step = 0.0;
  double max_proposed_step = 0.0;  // largest next_step an accepted attempt proposed
};

// Integrates from (t0, x0) to tf; h > 0 is the (fixed or initial) step, h == 0 asks the
// stepper. on_step(t_old, t_new, stepper) is called after every accepted step, so tests can
// query dense output while it is valid.
inline DriverResult drive(Stepper& stepper, const OdeSystem& system, double t0, const Vector& x0,
                          double tf, double h, const StepperSettings& settings,
                          const std::function<void(double, double, const Stepper&)>& on_step = {}) {
  DriverResult r;
  stepper.initialize(system, t0, x0, settings);
  const double max_step = settings.max_step > 0.0 ? settings.max_step : tf - t0;
  if (h <= 0.0) h = stepper.initial_step(system, t0, x0, tf);
  h = std::min(h, max_step);
  double t = t0;
  Vector x = x0;
  Vector x_new(x0.size());
  const double t_eps = 64.0 * std::numeric_limits<double>::epsilon() * std::abs(tf);
  long attempts = 0;
  while (tf - t > t_eps) {
    if (++attempts > 10'000'000) throw std::runtime_error("drive: too many attempts");
    const double step = std::min(h, tf - t);
    const StepAttempt a = stepper.attempt(system, t, x, step, x_new);
    if (!a.accepted) {
      ++r.rejected;
      h = std::min(a.next_step, max_step);
      continue;
    }
    ++r.accepted;
    r.max_accepted_step = std::max(r.max_accepted_step, step);
    if (stepper.control() == StepControl::adaptive) {
      r.max_proposed_step = std::max(r.max_proposed_step, a.next_step);
      h = std::min(a.next_step, max_step);
    }
    if (on_step) on_step(t, t + step, stepper);
    t += step;
    x.swap(x_new);
  }
  r.x_end = x;
  return r;
}

}  // namespace simverify::simulation::testing
