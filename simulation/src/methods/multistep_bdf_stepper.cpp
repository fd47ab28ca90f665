#include "methods/multistep_bdf_stepper.hpp"

#include "methods/implicit_step_size.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace simverify::simulation::detail {
namespace {

constexpr double kMinGrowth = 1.2;  // below this ratio an accepted step keeps h
constexpr double kBdfFailureShrink = 0.3;
// J is refreshed before the next step when simplified Newton contracted slower than this (a J
// formed far back, e.g. before a stiff mode woke up, degrades Newton towards a fixed-point
// iteration that converges only for explicit-sized steps), and at the latest after this many
// accepted steps (CVODE's MSBJ = 51), so it never goes stale without Newton noticing.
constexpr double kSlowContraction = 0.3;
constexpr int kMaxJacobianAge = 50;

}  // namespace

void BdfStepper::initialize(const OdeSystem& /*system*/, double t0, const Vector& x0,
                            const StepperSettings& settings) {
  settings_ = settings;
  const Eigen::Index n = x0.size();
  error_norm_.configure(settings, n);
  for (Vector& v : xs_) v.resize(n);
  for (Vector* v : {&f_, &pred_, &history_, &rhs_, &delta_, &error_, &thresholds_, &work_x_,
                    &work_f_, &other_}) {
    v->resize(n);
  }
  jacobian_.resize(n, n);
  w_.resize(n, n);
  lu_ = Eigen::PartialPivLU<Matrix>(n);
  jacobian_valid_ = false;
  restart(t0, x0);
}

void BdfStepper::restart(double t, const Vector& x) {
  xs_[0] = x;
  ts_[0] = t;
  count_ = 1;
  control_.restart();
  dense_points_ = 1;
  jacobian_fresh_ = false;
}

double BdfStepper::initial_step(const OdeSystem& system, double t0, const Vector& x0,
                                double t_end) {
  system.rhs(t0, x0, work_f_);
  return stiff_initial_step(x0, work_f_, settings_, 1, t_end - t0);
}

void BdfStepper::extrapolate(int points, double t, Vector& out) const {
  out.setZero();
  for (int j = 0; j < points; ++j) {
    double weight = 1.0;
    for (int m = 0; m < points; ++m) {
      if (m != j) {
        weight *= (t - ts_[static_cast<std::size_t>(m)]) /
                  (ts_[static_cast<std::size_t>(j)] - ts_[static_cast<std::size_t>(m)]);
      }
    }
    out.noalias() += weight * xs_[static_cast<std::size_t>(j)];
  }
}

void BdfStepper::refresh_jacobian(const OdeSystem& system, StepWork& work) {
  system.rhs(ts_[0], xs_[0], work_f_);
  other_ = work_f_;
  evaluate_jacobian(system, ts_[0], xs_[0], other_, work_x_, work_f_, jacobian_);
  ++work.jacobian_evaluations;
  jacobian_valid_ = true;
  jacobian_fresh_ = true;
  jacobian_age_ = 0;
  lu_valid_ = false;
}

bool BdfStepper::solve_corrector(const OdeSystem& system, double t_new, int order, Vector& x_new,
                                 StepWork& work) {
  // alpha_j: derivatives at tau_0 = t_new of the Lagrange basis on tau_0, ts_[0..order-1].
  double alpha0 = 0.0;
  history_.setZero();
  for (int j = 1; j <= order; ++j) {
    const double tau_j = ts_[static_cast<std::size_t>(j - 1)];
    alpha0 += 1.0 / (t_new - tau_j);
    double alpha_j = 1.0 / (tau_j - t_new);
    for (int m = 1; m <= order; ++m) {
      if (m == j) continue;
      const double tau_m = ts_[static_cast<std::size_t>(m - 1)];
      alpha_j *= (t_new - tau_m) / (tau_j - tau_m);
    }
    history_.noalias() += alpha_j * xs_[static_cast<std::size_t>(j - 1)];
  }
  if (!lu_valid_ || std::abs(alpha0 - lu_alpha_) > 1e-12 * std::abs(alpha0)) {
    w_ = (-1.0 / alpha0) * jacobian_;
    w_.diagonal().array() += 1.0;
    lu_.compute(w_);
    ++work.lu_factorizations;
    lu_valid_ = true;
    lu_alpha_ = alpha0;
  }
  x_new = pred_;
  newton_.start();
  for (;;) {
    system.rhs(t_new, x_new, f_);
    // (alpha0 I - J) delta = f - alpha0 x - history, scaled by 1/alpha0.
    rhs_ = (f_ - history_) / alpha0 - x_new;
    delta_.noalias() = lu_.solve(rhs_);
    x_new += delta_;
    const IterationStatus status = newton_.update(threshold_norm(delta_, thresholds_));
    if (status == IterationStatus::converged) {
      work.nonlinear_iterations += newton_.iterations();
      return true;
    }
    if (status == IterationStatus::diverged) {
      work.nonlinear_iterations += newton_.iterations();
      return false;
    }
  }
}

StepAttempt BdfStepper::do_step(const OdeSystem& system, double t, const Vector& x, double h,
                                Vector& x_new, StepWork& work) {
  if (t != ts_[0] || x != xs_[0]) restart(t, x);  // the driver moved (event, new segment)
  const double t_new = t + h;
  const int k = control_.order();
  // Predictor of degree k through k+1 points; at the first step x + h f (explicit Euler).
  const bool first = count_ == 1;
  if (first) {
    system.rhs(t, x, f_);
    pred_ = x + h * f_;
  } else {
    extrapolate(k + 1, t_new, pred_);
  }
  if (!jacobian_valid_) refresh_jacobian(system, work);
  stage_thresholds(x, h, k, settings_, thresholds_);
  bool converged = solve_corrector(system, t_new, k, x_new, work);
  if (!converged && !jacobian_fresh_) {
    refresh_jacobian(system, work);  // a stale J is the usual cause; retry before shrinking h
    converged = solve_corrector(system, t_new, k, x_new, work);
  }
  if (!converged) {
    check_step_underflow("ode15s", t, h * kBdfFailureShrink);
    return {.accepted = false,
            .error_norm = std::numeric_limits<double>::infinity(),
            .next_step = h * kBdfFailureShrink};
  }
  const double span = first ? 2.0 * h : t_new - ts_[static_cast<std::size_t>(k)];
  error_ = (h / span) * (x_new - pred_);
  const double err = error_norm_(error_, x, x_new);
  if (!(err <= 1.0)) {
    const double factor = control_.rejected(err, k);
    check_step_underflow("ode15s", t, h * factor);
    return {.accepted = false, .error_norm = err, .next_step = h * factor};
  }

  // Accepted. Step-size ratio for the current order and, after k+1 steps at it, the
  // neighbours (estimates with one point fewer / more, as for the order k estimate).
  control_.accepted(err, k);
  if (!first && control_.steps_at_order() >= k + 1) {
    if (k > 1) {
      extrapolate(k, t_new, other_);
      other_ = (h / (t_new - ts_[static_cast<std::size_t>(k - 1)])) * (x_new - other_);
      control_.consider(error_norm_(other_, x, x_new), k - 1);
    }
    if (k < kMaxOrder && count_ >= k + 2) {
      extrapolate(k + 2, t_new, other_);
      other_ = (h / (t_new - ts_[static_cast<std::size_t>(k) + 1])) * (x_new - other_);
      control_.consider(error_norm_(other_, x, x_new), k + 1);
    }
  }
  // Order 1 -> 2 as soon as two points exist: BDF1 is only the starter.
  if (k == 1 && count_ >= 2 && control_.best_order() == 1 && control_.steps_at_order() >= 1) {
    control_.prefer(2);
  }
  control_.settle();
  double factor = control_.best_ratio();
  if (factor >= 1.0 && factor < kMinGrowth) factor = 1.0;
  factor = std::max(factor, 0.5);

  // Shift the history: x_new becomes index 0.
  for (int j = kHistory - 1; j > 0; --j) {
    xs_[static_cast<std::size_t>(j)].swap(xs_[static_cast<std::size_t>(j - 1)]);
    ts_[static_cast<std::size_t>(j)] = ts_[static_cast<std::size_t>(j - 1)];
  }
  xs_[0] = x_new;
  ts_[0] = t_new;
  count_ = std::min(count_ + 1, kHistory);
  dense_points_ = k + 1;
  jacobian_fresh_ = false;
  if (++jacobian_age_ >= kMaxJacobianAge || newton_.contraction_estimate() > kSlowContraction) {
    jacobian_valid_ = false;
  }
  return {.accepted = true, .error_norm = err, .next_step = h * factor};
}

void BdfStepper::interpolate(double t_query, Vector& x_out) const {
  if (dense_points_ <= 1 || count_ < 2) {
    x_out = xs_[0];
    return;
  }
  extrapolate(std::min(dense_points_, count_), t_query, x_out);
}

}  // namespace simverify::simulation::detail
