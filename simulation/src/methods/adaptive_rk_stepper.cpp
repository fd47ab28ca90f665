#include "methods/adaptive_rk_stepper.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace simverify::simulation::detail {

AdaptiveRungeKuttaStepper::AdaptiveRungeKuttaStepper(const ButcherTableau& tableau,
                                                     DenseOutput dense,
                                                     StepControlParameters control)
    : rk_(tableau),
      dense_(dense.extension),
      substeps_(dense.substeps && dense.extension == nullptr),
      controller_(std::min(tableau.order, tableau.embedded_order), control),
      lower_order_(std::min(tableau.order, tableau.embedded_order)),
      fsal_(tableau.is_fsal()),
      substep_rk_(tableau) {
  if (!tableau.is_embedded()) {
    throw std::invalid_argument("adaptive stepper: tableau '" + tableau.name +
                                "' has no embedded solution (b_hat, Def 3.32)");
  }
  if (dense_ != nullptr && dense_->rows() != tableau.stages()) {
    throw std::invalid_argument("adaptive stepper: dense output of '" + tableau.name +
                                "' needs one row per stage (" + std::to_string(tableau.stages()) +
                                ")");
  }
}

void AdaptiveRungeKuttaStepper::initialize(const OdeSystem& /*system*/, double t0, const Vector& x0,
                                           const StepperSettings& settings) {
  const Eigen::Index n = x0.size();
  settings_ = settings;
  error_norm_.configure(settings, n);
  controller_ =
      StepSizeController(lower_order_, with_checked_safety(controller_.parameters(), settings));
  controller_.reset();
  rk_.resize(n);
  dense_stages_.assign(static_cast<std::size_t>(rk_.tableau().stages()), Vector::Zero(n));
  error_.setZero(n);
  x_old_ = x0;
  x_end_ = x0;
  f_old_.setZero(n);
  f_end_.setZero(n);
  hinit_x_.setZero(n);
  hinit_f_.setZero(n);
  t_old_ = t_end_ = t0;
  f_end_valid_ = false;  // after an event x0 changed: never reuse a stale derivative
  f_end_in_stages_ = false;
  substep_hermite_valid_ = false;
  if (substeps_) {
    substep_rk_.resize(n);
    substep_x_.fill(Vector::Zero(n));
    substep_slope_.fill(Vector::Zero(n));
    substep_error_.setZero(n);
  }
}

double AdaptiveRungeKuttaStepper::initial_step(const OdeSystem& system, double t0, const Vector& x0,
                                               double t_end) {
  const double span = std::abs(t_end - t0);
  const double h_max = settings_.max_step > 0.0 ? std::min(settings_.max_step, span) : span;
  if (!(t0 == t_end_ && x0 == x_end_ && f_end_valid_)) {
    system.rhs(t0, x0, f_end_);
    f_end_in_stages_ = false;
    t_end_ = t0;
    x_end_ = x0;
    f_end_valid_ = true;  // k_1 of the first step
  }
  // HNW II.4 (step_control.hpp), probing f once with an explicit Euler step.
  const double d0 = error_norm_.rms_scaled(x0, x0);
  const double d1 = error_norm_.rms_scaled(f_end(), x0);
  const double h0 = euler_probe_step(d0, d1, h_max);
  hinit_x_ = x0;
  hinit_x_.noalias() += h0 * f_end();
  system.rhs(t0 + h0, hinit_x_, hinit_f_);
  hinit_f_ -= f_end();
  const double d2 = error_norm_.rms_scaled(hinit_f_, x0) / h0;
  return starting_step(h0, d1, d2, lower_order_, h_max);
}

StepAttempt AdaptiveRungeKuttaStepper::do_step(const OdeSystem& system, double t, const Vector& x,
                                               double h, Vector& x_new, StepWork& /*work*/) {
  require_step_progress(rk_.tableau().name, t, h);
  // FSAL: the last stage of the accepted step is f at its end, which is k_1 here.
  const bool reuse = f_end_valid_ && t == t_end_ && x == x_end_;
  rk_.step_with_error(system, t, x, h, x_new, error_, reuse ? &f_end() : nullptr);
  const double err = error_norm_(error_, x, x_new);

  if (!(err <= 1.0)) {  // also NaN
    if (!reuse) {       // keep k_1 = f(t, x) for the retry
      f_end_ = rk_.stages().front();
      f_end_in_stages_ = false;
      t_end_ = t;
      x_end_ = x;
      f_end_valid_ = true;
    }
    double next = controller_.rejected(h, err);
    return {.accepted = false, .error_norm = err, .next_step = next};
  }
  accept(system, t, x, h, x_new);
  double next = controller_.accepted(h, err);
  if (settings_.max_step > 0.0) next = std::min(next, settings_.max_step);
  return {.accepted = true, .error_norm = err, .next_step = next};
}

void AdaptiveRungeKuttaStepper::accept(const OdeSystem& system, double t, const Vector& x, double h,
                                       const Vector& x_new) {
  const auto& stages = rk_.stages();
  // f at the start of the step is k_1 of this step; only Hermite needs it apart from the
  // stages (a continuous extension reads it from dense_stages_).
  if (dense_ == nullptr) f_old_ = stages.front();
  x_old_ = x;
  t_old_ = t;
  t_end_ = t + h;
  x_end_ = x_new;
  // With a continuous extension the stages are kept (swapped below, not copied), and an FSAL
  // last stage, f at the end, is read there (a copy cost 30 instructions per step on 4 states).
  f_end_in_stages_ = fsal_ && dense_ != nullptr;
  if (!fsal_) {
    system.rhs(t_end_, x_end_, f_end_);  // needed for Hermite, and it is the next k_1
  } else if (!f_end_in_stages_) {
    f_end_ = stages.back();
  }
  f_end_valid_ = true;
  if (dense_ != nullptr) rk_.swap_stages(dense_stages_);
  system_ = &system;
  substep_hermite_valid_ = false;
}

void AdaptiveRungeKuttaStepper::interpolate(double t_query, Vector& x_out) const {
  const double h = t_end_ - t_old_;
  if (h == 0.0) {
    x_out = x_end_;
    return;
  }
  if (substeps_) {
    if (!substep_hermite_valid_) fit_substep_hermite();
    substep_hermite_.evaluate((t_query - t_old_) / h, x_out);
    return;
  }
  if (dense_ == nullptr) {
    hermite_interpolate(t_old_, x_old_, f_old_, t_end_, x_end_, f_end(), t_query, x_out);
    return;
  }
  // x(t + theta h) = x + h sum_i k_i b_i(theta), b_i(theta) = sum_j P_ij theta^(j+1)
  const double theta = (t_query - t_old_) / h;
  const Matrix& p = *dense_;
  x_out = x_old_;
  for (Eigen::Index i = 0; i < p.rows(); ++i) {
    const double weight = extension_weight(p, i, theta);
    if (weight != 0.0) x_out.noalias() += (h * weight) * dense_stages_[static_cast<std::size_t>(i)];
  }
}

void AdaptiveRungeKuttaStepper::fit_substep_hermite() const {
  const double h = t_end_ - t_old_;
  // Both substeps start at the step's start (its k_1 is f_old_), so their local errors
  // O(h^(p+1)) do not compound and stay below the interpolant's O(h^8).
  for (std::size_t i = 0; i < 2; ++i) {
    const double hi = h * static_cast<double>(i + 1) / 3.0;
    substep_rk_.step_with_error(*system_, t_old_, x_old_, hi, substep_x_[i], substep_error_,
                                &f_old_);
    system_->rhs(t_old_ + hi, substep_x_[i], substep_slope_[i + 1]);
    substep_slope_[i + 1] *= h;  // the derivative in theta
  }
  substep_slope_[0] = h * f_old_;
  substep_slope_[3] = h * f_end();
  substep_hermite_.fit(
      {0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0}, {&x_old_, &substep_x_[0], &substep_x_[1], &x_end_},
      {&substep_slope_[0], &substep_slope_[1], &substep_slope_[2], &substep_slope_[3]});
  substep_hermite_valid_ = true;
}

}  // namespace simverify::simulation::detail
