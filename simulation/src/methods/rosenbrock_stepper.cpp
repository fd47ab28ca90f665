#include "methods/rosenbrock_stepper.hpp"

#include "methods/implicit_step_size.hpp"

#include <simverify/simulation/nonlinear_solver.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace simverify::simulation::detail {
namespace {

constexpr double kD = 1.0 / (2.0 + std::numbers::sqrt2);
constexpr double kE32 = 6.0 + std::numbers::sqrt2;

}  // namespace

// q = 2: the error estimate measures the local error of the second-order x_new.
RosenbrockStepper::RosenbrockStepper() : controller_(2, StepControlParameters{}) {}

void RosenbrockStepper::initialize(const OdeSystem& /*system*/, double t0, const Vector& x0,
                                   const StepperSettings& settings) {
  settings_ = settings;
  const Eigen::Index n = x0.size();
  error_norm_.configure(settings, n);
  controller_ = StepSizeController(2, with_settings({}, settings));
  for (Vector* v : {&f0_, &f1_, &f2_, &dfdt_, &k1_, &k2_, &k3_, &rhs_, &stage_, &error_, &work_x_,
                    &work_f_, &point_x_, &x_old_}) {
    v->resize(n);
  }
  jacobian_.resize(n, n);
  w_.resize(n, n);
  lu_ = Eigen::PartialPivLU<Matrix>(n);
  point_valid_ = false;
  jacobian_current_ = false;
  has_step_ = false;
  t_old_ = t0;
  h_ = 0.0;
  x_old_ = x0;
}

double RosenbrockStepper::initial_step(const OdeSystem& system, double t0, const Vector& x0,
                                       double t_end) {
  system.rhs(t0, x0, work_f_);
  return stiff_initial_step(x0, work_f_, settings_, 2, t_end - t0);
}

void RosenbrockStepper::prepare_point(const OdeSystem& system, double t, const Vector& x, double h,
                                      StepWork& work) {
  if (!(point_valid_ && t == point_t_ && x == point_x_)) {
    system.rhs(t, x, f0_);
    point_valid_ = true;
    point_t_ = t;
    point_x_ = x;
    jacobian_current_ = false;
  }
  if (jacobian_current_) return;  // retry after a rejection: same point, same J
  evaluate_jacobian(system, t, x, f0_, work_x_, work_f_, jacobian_);
  ++work.jacobian_evaluations;
  // df/dt by a forward difference, as MATLAB's ode23s (one f evaluation per step).
  const double dt = std::sqrt(std::numeric_limits<double>::epsilon()) *
                    std::max({std::abs(t), std::abs(t + h), std::abs(h)});
  system.rhs(t + dt, x, work_f_);
  dfdt_ = (work_f_ - f0_) / dt;
  jacobian_current_ = true;
}

StepAttempt RosenbrockStepper::do_step(const OdeSystem& system, double t, const Vector& x, double h,
                                       Vector& x_new, StepWork& work) {
  prepare_point(system, t, x, h, work);
  w_ = (-h * kD) * jacobian_;
  w_.diagonal().array() += 1.0;
  lu_.compute(w_);
  ++work.lu_factorizations;

  rhs_ = f0_ + (h * kD) * dfdt_;
  k1_.noalias() = lu_.solve(rhs_);
  stage_ = x + (0.5 * h) * k1_;
  system.rhs(t + 0.5 * h, stage_, f1_);
  rhs_ = f1_ - k1_;
  k2_.noalias() = lu_.solve(rhs_);
  k2_ += k1_;
  x_new = x + h * k2_;
  system.rhs(t + h, x_new, f2_);
  rhs_ = f2_ - kE32 * (k2_ - f1_) - 2.0 * (k1_ - f0_) + (h * kD) * dfdt_;
  k3_.noalias() = lu_.solve(rhs_);
  error_ = (h / 6.0) * (k1_ - 2.0 * k2_ + k3_);

  t_old_ = t;
  h_ = h;
  x_old_ = x;
  has_step_ = true;
  const double err = error_norm_(error_, x, x_new);
  if (err <= 1.0) {
    // FSAL: F_2 = f(t + h, x_new) is the next step's F_0; J and df/dt are re-evaluated there.
    f0_.swap(f2_);
    point_t_ = t + h;
    point_x_ = x_new;
    jacobian_current_ = false;
    return {.accepted = true, .error_norm = err, .next_step = controller_.accepted(h, err)};
  }
  const double next = controller_.rejected(h, err);
  check_step_underflow("ode23s", t, next);
  return {.accepted = false, .error_norm = err, .next_step = next};
}

void RosenbrockStepper::interpolate(double t_query, Vector& x_out) const {
  if (!has_step_ || h_ == 0.0) {
    x_out = x_old_;
    return;
  }
  const double s = (t_query - t_old_) / h_;
  const double scale = h_ / (1.0 - 2.0 * kD);
  x_out = x_old_ + (scale * s * (1.0 - s)) * k1_ + (scale * s * (s - 2.0 * kD)) * k2_;
}

}  // namespace simverify::simulation::detail
