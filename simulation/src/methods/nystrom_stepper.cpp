#include "methods/nystrom_stepper.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace simverify::simulation::detail {

NystromStepper::NystromStepper(const NystromTableau& tableau, StepControlParameters control)
    : tableau_(&tableau),
      controller_(std::min(tableau.order, std::max(tableau.embedded_order, 1)), control),
      control_parameters_(control) {}

void NystromStepper::initialize(const OdeSystem& system, double t0, const Vector& x0,
                                const StepperSettings& settings) {
  const auto& structure = system.second_order();
  if (!structure) {
    throw std::invalid_argument("Runge-Kutta-Nystrom method '" + tableau_->name +
                                "' needs a system x'' = g(t, q) with positions and velocities");
  }
  positions_ = structure->positions;
  velocities_ = structure->velocities;
  const auto m = static_cast<Eigen::Index>(positions_.size());
  settings_ = settings;
  if (tableau_->is_embedded()) {
    error_norm_.configure(settings, x0.size());
    controller_ = StepSizeController(std::min(tableau_->order, tableau_->embedded_order),
                                     with_checked_safety(control_parameters_, settings));
  }
  controller_.reset();
  for (Vector* v : {&q_, &v_, &stage_q_, &q_new_, &v_new_, &eq_, &ev_, &q_old_, &v_old_, &a_old_,
                    &q_end_, &v_end_, &a_end_}) {
    v->setZero(m);
  }
  error_.setZero(x0.size());
  k_.assign(static_cast<std::size_t>(tableau_->stages()), Vector::Zero(m));
  system_ = nullptr;
  t_old_ = t_end_ = t0;
  x_end_ = x0;
  gather(x0, q_end_, v_end_);
  q_old_ = q_end_;
  v_old_ = v_end_;
  a_end_valid_ = false;  // after an event x0 changed: never reuse a stale acceleration
}

void NystromStepper::gather(const Vector& x, Vector& q, Vector& v) const {
  for (std::size_t i = 0; i < positions_.size(); ++i) {
    q[static_cast<Eigen::Index>(i)] = x[positions_[i]];
    v[static_cast<Eigen::Index>(i)] = x[velocities_[i]];
  }
}

void NystromStepper::scatter(const Vector& q, const Vector& v, Vector& x) const {
  for (std::size_t i = 0; i < positions_.size(); ++i) {
    x[positions_[i]] = q[static_cast<Eigen::Index>(i)];
    x[velocities_[i]] = v[static_cast<Eigen::Index>(i)];
  }
}

double NystromStepper::initial_step(const OdeSystem& system, double t0, const Vector& x0,
                                    double t_end) {
  const double span = std::abs(t_end - t0);
  const double h_max = settings_.max_step > 0.0 ? std::min(settings_.max_step, span) : span;
  if (!tableau_->is_embedded()) return h_max / 100.0;
  if (!(t0 == t_end_ && x0 == x_end_ && a_end_valid_)) {
    t_end_ = t0;
    x_end_ = x0;
    gather(x0, q_end_, v_end_);
    system.acceleration(t0, q_end_, a_end_);
    a_end_valid_ = true;  // k_1 of the first step
  }
  // HNW II.4 (step_control.hpp) on the first-order form f = (v, g).
  Vector f0 = Vector::Zero(x0.size());
  for (std::size_t i = 0; i < positions_.size(); ++i) {
    f0[positions_[i]] = v_end_[static_cast<Eigen::Index>(i)];
    f0[velocities_[i]] = a_end_[static_cast<Eigen::Index>(i)];
  }
  const double d1 = error_norm_.rms_scaled(f0, x0);
  const double h0 = euler_probe_step(error_norm_.rms_scaled(x0, x0), d1, h_max);
  const Vector q1 = q_end_ + h0 * v_end_;
  const Vector v1 = v_end_ + h0 * a_end_;
  Vector a1(q1.size());
  system.acceleration(t0 + h0, q1, a1);
  Vector df = Vector::Zero(x0.size());
  for (std::size_t i = 0; i < positions_.size(); ++i) {
    const auto j = static_cast<Eigen::Index>(i);
    df[positions_[i]] = v1[j] - v_end_[j];
    df[velocities_[i]] = a1[j] - a_end_[j];
  }
  const double d2 = error_norm_.rms_scaled(df, x0) / h0;
  return starting_step(h0, d1, d2, std::min(tableau_->order, tableau_->embedded_order), h_max);
}

void NystromStepper::stages(const OdeSystem& system, double t, double h, bool reuse_first) {
  const NystromTableau& tab = *tableau_;
  const double h2 = h * h;
  for (int i = 0; i < tab.stages(); ++i) {
    auto& k = k_[static_cast<std::size_t>(i)];
    if (i == 0 && reuse_first) {
      k = a_end_;
      continue;
    }
    stage_q_ = q_;
    stage_q_.noalias() += (tab.c[i] * h) * v_;
    for (int j = 0; j < i; ++j) {
      if (tab.a(i, j) != 0.0)
        stage_q_.noalias() += (h2 * tab.a(i, j)) * k_[static_cast<std::size_t>(j)];
    }
    system.acceleration(t + tab.c[i] * h, stage_q_, k);
  }
}

StepAttempt NystromStepper::do_step(const OdeSystem& system, double t, const Vector& x, double h,
                                    Vector& x_new, StepWork& /*work*/) {
  const NystromTableau& tab = *tableau_;
  const bool adaptive = tab.is_embedded();
  if (adaptive) require_step_progress(tab.name, t, h);
  gather(x, q_, v_);
  // k_1 = g(t, q) is known when (t, x) is where the last accepted step (or initial_step) ended.
  const bool reuse = a_end_valid_ && t == t_end_ && x == x_end_;
  stages(system, t, h, reuse);
  const double h2 = h * h;
  q_new_ = q_;
  q_new_.noalias() += h * v_;
  v_new_ = v_;
  eq_.setZero();
  ev_.setZero();
  for (int i = 0; i < tab.stages(); ++i) {
    const auto& k = k_[static_cast<std::size_t>(i)];
    if (tab.b[i] != 0.0) q_new_.noalias() += (h2 * tab.b[i]) * k;
    if (tab.b_prime[i] != 0.0) v_new_.noalias() += (h * tab.b_prime[i]) * k;
    if (adaptive) {
      const double eb = tab.b[i] - (*tab.b_hat)[i];
      const double ebp = tab.b_prime[i] - (*tab.b_prime_hat)[i];
      if (eb != 0.0) eq_.noalias() += (h2 * eb) * k;
      if (ebp != 0.0) ev_.noalias() += (h * ebp) * k;
    }
  }
  x_new = x;
  scatter(q_new_, v_new_, x_new);

  double err = 0.0;
  if (adaptive) {
    scatter(eq_, ev_, error_);
    err = error_norm_(error_, x, x_new);
    if (!(err <= 1.0)) {  // also NaN
      if (!reuse) {       // keep k_1 = g(t, q) for the retry
        a_end_ = k_.front();
        t_end_ = t;
        x_end_ = x;
        a_end_valid_ = true;
      }
      return {.accepted = false, .error_norm = err, .next_step = controller_.rejected(h, err)};
    }
  }
  system_ = &system;
  t_old_ = t;
  t_end_ = t + h;
  q_old_ = q_;
  v_old_ = v_;
  a_old_ = k_.front();
  x_end_ = x_new;
  q_end_ = q_new_;
  v_end_ = v_new_;
  a_end_valid_ = tab.is_fsal();  // the last stage is g(t + h, q_new)
  if (a_end_valid_) a_end_ = k_.back();
  if (!adaptive) return {.accepted = true, .error_norm = 0.0, .next_step = h};
  double next = controller_.accepted(h, err);
  if (settings_.max_step > 0.0) next = std::min(next, settings_.max_step);
  return {.accepted = true, .error_norm = err, .next_step = next};
}

void NystromStepper::interpolate(double t_query, Vector& x_out) const {
  const double h = t_end_ - t_old_;
  x_out = x_end_;
  if (h == 0.0 || system_ == nullptr) return;
  if (!a_end_valid_) {  // rkn4: g at the step's end is not a stage; evaluated once, on demand
    system_->acceleration(t_end_, q_end_, a_end_);
    a_end_valid_ = true;
  }
  // Quintic Hermite p(s), s = (t - t_old) / h, matching q, h v and h^2 g at both ends.
  const double s = (t_query - t_old_) / h;
  const double s2 = s * s, s3 = s2 * s, s4 = s3 * s, s5 = s4 * s;
  const double h2 = h * h;
  const double p0 = 1 - 10 * s3 + 15 * s4 - 6 * s5, p1 = s - 6 * s3 + 8 * s4 - 3 * s5,
               p2 = 0.5 * s2 - 1.5 * s3 + 1.5 * s4 - 0.5 * s5, p3 = 10 * s3 - 15 * s4 + 6 * s5,
               p4 = -4 * s3 + 7 * s4 - 3 * s5, p5 = 0.5 * s3 - s4 + 0.5 * s5;
  // dp/ds, divided by h for the velocity.
  const double d0 = -30 * s2 + 60 * s3 - 30 * s4, d1 = 1 - 18 * s2 + 32 * s3 - 15 * s4,
               d2 = s - 4.5 * s2 + 6 * s3 - 2.5 * s4, d3 = 30 * s2 - 60 * s3 + 30 * s4,
               d4 = -12 * s2 + 28 * s3 - 15 * s4, d5 = 1.5 * s2 - 4 * s3 + 2.5 * s4;
  for (std::size_t i = 0; i < positions_.size(); ++i) {
    const auto j = static_cast<Eigen::Index>(i);
    x_out[positions_[i]] = p0 * q_old_[j] + p1 * h * v_old_[j] + p2 * h2 * a_old_[j] +
                           p3 * q_end_[j] + p4 * h * v_end_[j] + p5 * h2 * a_end_[j];
    x_out[velocities_[i]] = (d0 * q_old_[j] + d3 * q_end_[j]) / h + d1 * v_old_[j] +
                            d2 * h * a_old_[j] + d4 * v_end_[j] + d5 * h * a_end_[j];
  }
}

}  // namespace simverify::simulation::detail
