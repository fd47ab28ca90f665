#include "methods/explicit_fixed_stepper.hpp"

#include "methods/hermite.hpp"

namespace simverify::simulation::detail {

void ExplicitFixedStepper::initialize(const OdeSystem& /*system*/, double t0, const Vector& x0,
                                      const StepperSettings& /*settings*/) {
  rk_.resize(x0.size());
  system_ = nullptr;
  t_old_ = t_new_ = t0;
  x_old_ = x_new_ = x0;
  f_new_.setZero(x0.size());
  f_new_valid_ = false;
}

StepAttempt ExplicitFixedStepper::do_step(const OdeSystem& system, double t, const Vector& x,
                                          double h, Vector& x_new, StepWork& /*work*/) {
  rk_.step(system, t, x, h, x_new);
  system_ = &system;
  t_old_ = t;
  t_new_ = t + h;
  x_old_ = x;
  x_new_ = x_new;
  f_new_valid_ = false;
  return {.accepted = true, .error_norm = 0.0, .next_step = h};
}

void ExplicitFixedStepper::interpolate(double t_query, Vector& x_out) const {
  if (t_new_ == t_old_ || system_ == nullptr) {
    x_out = x_new_;
    return;
  }
  if (!f_new_valid_) {
    if (rk_.tableau().is_fsal()) {
      f_new_ = rk_.stages().back();
    } else {
      system_->rhs(t_new_, x_new_, f_new_);
    }
    f_new_valid_ = true;
  }
  // k_1 is f at the start of the step.
  hermite_interpolate(t_old_, x_old_, rk_.stages().front(), t_new_, x_new_, f_new_, t_query, x_out);
}

}  // namespace simverify::simulation::detail
