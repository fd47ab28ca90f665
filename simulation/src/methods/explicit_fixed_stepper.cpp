#include "methods/explicit_fixed_stepper.hpp"

#include "methods/hermite.hpp"

namespace simverify::simulation::detail {

void ExplicitFixedStepper::initialize(const OdeSystem& system, double t0, const Vector& x0,
                                      const StepperSettings& /*settings*/) {
  rk_.resize(x0.size());
  t_old_ = t_new_ = t0;
  x_old_ = x_new_ = x0;
  f_old_.resize(x0.size());
  f_new_.resize(x0.size());
  (void)system;
}

StepAttempt ExplicitFixedStepper::attempt(const OdeSystem& system, double t, const Vector& x,
                                          double h, Vector& x_new) {
  rk_.step(system, t, x, h, x_new);
  t_old_ = t;
  t_new_ = t + h;
  x_old_ = x;
  x_new_ = x_new;
  ++statistics_.accepted_steps;
  return {.accepted = true, .error_norm = 0.0, .next_step = h};
}

void ExplicitFixedStepper::interpolate(double t_query, Vector& x_out) const {
  if (t_new_ == t_old_) {
    x_out = x_new_;
    return;
  }
  // k_1 is f at the start of the step; f at the end is not evaluated by a fixed-step method,
  // so the end slope comes from a linear blend that keeps the interpolant consistent.
  const Vector& f0 = rk_.stages().front();
  const Vector f1 = (x_new_ - x_old_) / (t_new_ - t_old_) * 2.0 - f0;
  hermite_interpolate(t_old_, x_old_, f0, t_new_, x_new_, f1, t_query, x_out);
}

}  // namespace simverify::simulation::detail
