#pragma once
// Test support for the solver tests: the public driver (integrate.hpp) with the step sizes a
// test asserts on recorded, so solver tests do not depend on the Simulator's other features.
#include <simverify/simulation/integrate.hpp>
#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/stepper.hpp>

#include <algorithm>
#include <functional>

namespace simverify::simulation::testing {

// rtol = atol = tol, the usual setting of a solver test.
inline StepperSettings tolerance(double tol) {
  StepperSettings s;
  s.rtol = tol;
  s.atol = {tol};
  return s;
}

struct DriverResult {
  Vector x_end;
  long accepted = 0;  // counted by the observer, independently of the stepper's statistics
  long rejected = 0;
  double max_accepted_step = 0.0;
};

// Integrates from (t0, x0) to tf; h > 0 is the (fixed or initial) step, h == 0 asks the
// stepper. on_step(t_old, t_new, stepper) is called after every accepted step, so tests can
// query dense output while it is valid.
inline DriverResult drive(Stepper& stepper, const OdeSystem& system, double t0, const Vector& x0,
                          double tf, double h, const StepperSettings& settings,
                          const std::function<void(double, double, const Stepper&)>& on_step = {}) {
  DriverResult r;
  const long rejected_before = stepper.statistics().rejected_steps;
  r.x_end = integrate(stepper, system, t0, x0, tf, h, settings,
                      [&](double t_old, double t_new, const Vector& /*x*/) {
                        ++r.accepted;
                        r.max_accepted_step = std::max(r.max_accepted_step, t_new - t_old);
                        if (on_step) on_step(t_old, t_new, stepper);
                      })
                .x;
  r.rejected = stepper.statistics().rejected_steps - rejected_before;
  return r;
}

}  // namespace simverify::simulation::testing
