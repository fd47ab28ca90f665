#include "methods/implicit_rk_stepper.hpp"

#include "methods/implicit_step_size.hpp"

#include <limits>

namespace simverify::simulation::detail {
namespace {

constexpr double kRkFailureShrink = 0.25;  // h/4 after a failed nonlinear solve (Hairer's RADAU5
                                           // halves; TR-BDF2 codes quarter; both work)

}  // namespace

ImplicitRungeKuttaStepper::ImplicitRungeKuttaStepper(const ButcherTableau& tableau,
                                                     StepControl control)
    : rk_(tableau, NonlinearSolver::newton),
      control_(control),
      // Thm 3.35 with q = the order of the propagated (lower-order) solution: the embedded
      // estimate measures its local error, O(h^(q+1)).
      controller_(tableau.order, StepControlParameters{}) {}

void ImplicitRungeKuttaStepper::initialize(const OdeSystem& /*system*/, double t0, const Vector& x0,
                                           const StepperSettings& settings) {
  settings_ = settings;
  rk_.set_solver(settings.nonlinear);
  rk_.resize(x0.size(), settings);
  error_.resize(x0.size());
  x_start_ = x0;
  if (control_ == StepControl::adaptive) {
    error_norm_.configure(settings, x0.size());
    controller_ = StepSizeController(rk_.tableau().order, with_settings({}, settings));
  }
  t_old_ = t_new_ = t0;
  has_step_ = false;
}

double ImplicitRungeKuttaStepper::initial_step(const OdeSystem& system, double t0, const Vector& x0,
                                               double t_end) {
  if (control_ == StepControl::fixed) return (t_end - t0) / 100.0;
  system.rhs(t0, x0, error_);
  return stiff_initial_step(x0, error_, settings_, rk_.tableau().order, t_end - t0);
}

StepAttempt ImplicitRungeKuttaStepper::fail(const StageSolveResult& result, double t, double h) {
  if (control_ == StepControl::fixed) {
    switch (result.failure) {
      case StageFailure::contraction_bound:
        throw ContractionError(contraction_message(t, h, result.contraction, "h L ||A||"));
      case StageFailure::fixed_point_diverged:
        throw ContractionError(
            contraction_message(t, h, result.contraction, "observed contraction factor"));
      default:
        throw NewtonError(rk_.tableau().name +
                          ": Newton's method did not converge at t = " + std::to_string(t) +
                          " with h = " + std::to_string(h) + " (contraction estimate " +
                          std::to_string(result.contraction) + "); reduce h");
    }
  }
  double factor = kRkFailureShrink;
  if (result.failure == StageFailure::contraction_bound) factor = 0.5 / result.contraction;
  check_step_underflow(rk_.tableau().name.c_str(), t, h * factor);
  return {.accepted = false,
          .error_norm = std::numeric_limits<double>::infinity(),
          .next_step = h * factor};
}

StepAttempt ImplicitRungeKuttaStepper::do_step(const OdeSystem& system, double t, const Vector& x,
                                               double h, Vector& x_new, StepWork& work) {
  const StageSolveResult result = rk_.step(system, t, x, h, x_new, work);
  if (!result.converged()) return fail(result, t, h);
  t_old_ = t;
  t_new_ = t + h;
  has_step_ = true;
  if (control_ == StepControl::fixed) {
    return {.accepted = true, .error_norm = 0.0, .next_step = h};
  }
  rk_.error_estimate(error_);
  const double err = error_norm_(error_, x, x_new);
  if (err <= 1.0) {
    return {.accepted = true, .error_norm = err, .next_step = controller_.accepted(h, err)};
  }
  const double next = controller_.rejected(h, err);
  check_step_underflow(rk_.tableau().name.c_str(), t, next);
  return {.accepted = false, .error_norm = err, .next_step = next};
}

void ImplicitRungeKuttaStepper::interpolate(double t_query, Vector& x_out) const {
  if (!has_step_ || t_new_ == t_old_) {
    x_out = x_start_;
    return;
  }
  rk_.interpolate((t_query - t_old_) / (t_new_ - t_old_), x_out);
}

}  // namespace simverify::simulation::detail
