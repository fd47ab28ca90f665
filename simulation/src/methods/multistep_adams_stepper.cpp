#include "methods/multistep_adams_stepper.hpp"

#include "methods/hermite.hpp"
#include "methods/implicit_step_size.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace simverify::simulation::detail {

AdamsStepper::AdamsStepper() {
  // Golub-Welsch: Gauss-Legendre nodes are the eigenvalues of the Jacobi matrix of the
  // Legendre recurrence, weights 2 v_0^2 (exact for degree <= 2 * 7 - 1 = 13).
  Matrix jacobi = Matrix::Zero(kQuadrature, kQuadrature);
  for (int i = 1; i < kQuadrature; ++i) {
    const double beta = i / std::sqrt(4.0 * i * i - 1.0);
    jacobi(i, i - 1) = beta;
    jacobi(i - 1, i) = beta;
  }
  const Eigen::SelfAdjointEigenSolver<Matrix> eigen(jacobi);
  for (int q = 0; q < kQuadrature; ++q) {
    nodes_[static_cast<std::size_t>(q)] = 0.5 * (1.0 + eigen.eigenvalues()(q));
    const double v = eigen.eigenvectors()(0, q);
    weights_[static_cast<std::size_t>(q)] = v * v;  // 2 v^2 on [-1, 1], halved for [0, 1]
  }
}

void AdamsStepper::initialize(const OdeSystem& system, double t0, const Vector& x0,
                              const StepperSettings& settings) {
  settings_ = settings;
  const Eigen::Index n = x0.size();
  error_norm_.configure(settings, n);
  for (Vector& v : fs_) v.resize(n);
  for (Vector* v :
       {&x_last_, &x_pred_, &f_pred_, &error_, &other_, &x_old_, &f_old_, &x_new_, &f_new_}) {
    v->resize(n);
  }
  has_step_ = false;
  t_old_ = t_new_ = t0;
  x_new_ = x0;
  restart(system, t0, x0);
}

double AdamsStepper::initial_step(const OdeSystem& /*system*/, double t0, const Vector& x0,
                                  double t_end) {
  // fs_[0] = f(t0, x0) from initialize(); the first step has order 1.
  return stiff_initial_step(x0, fs_[0], settings_, 1, t_end - t0);
}

void AdamsStepper::restart(const OdeSystem& system, double t, const Vector& x) {
  ts_[0] = t;
  x_last_ = x;
  system.rhs(t, x, fs_[0]);
  count_ = 1;
  control_.restart();
}

void AdamsStepper::integrate(const Vector& x, double t, double h, int points, const Vector* f_extra,
                             Vector& out) {
  // Nodes: (t + h) first when f_extra is given, then ts_[0 .. points-1].
  const int m = points + (f_extra != nullptr ? 1 : 0);
  auto node = [&](int j) {
    if (f_extra != nullptr) return j == 0 ? t + h : ts_[static_cast<std::size_t>(j - 1)];
    return ts_[static_cast<std::size_t>(j)];
  };
  out = x;
  for (int j = 0; j < m; ++j) {
    // w_j = h sum_q W_q l_j(t + h s_q)
    double w = 0.0;
    for (int q = 0; q < kQuadrature; ++q) {
      const double s = t + h * nodes_[static_cast<std::size_t>(q)];
      double l = 1.0;
      for (int i = 0; i < m; ++i) {
        if (i != j) l *= (s - node(i)) / (node(j) - node(i));
      }
      w += weights_[static_cast<std::size_t>(q)] * l;
    }
    const Vector& f = (f_extra != nullptr && j == 0)
                          ? *f_extra
                          : fs_[static_cast<std::size_t>(f_extra != nullptr ? j - 1 : j)];
    out.noalias() += (h * w) * f;
  }
}

StepAttempt AdamsStepper::do_step(const OdeSystem& system, double t, const Vector& x, double h,
                                  Vector& x_new, StepWork& /*work*/) {
  if (t != ts_[0] || x != x_last_) restart(system, t, x);  // the driver moved (event, segment)
  const int k = std::min(control_.order(), count_);
  integrate(x, t, h, k, nullptr, x_pred_);  // P
  system.rhs(t + h, x_pred_, f_pred_);      // E
  integrate(x, t, h, k, &f_pred_, x_new);   // C
  error_ = x_new - x_pred_;
  const double err = error_norm_(error_, x, x_new);
  if (!(err <= 1.0)) {
    const double factor = control_.rejected(err, k);
    check_step_underflow("ode113", t, h * factor);
    return {.accepted = false, .error_norm = err, .next_step = h * factor};
  }
  control_.accepted(err, k);
  if (control_.steps_at_order() >= k + 1 || (k == 1 && count_ >= 2)) {
    if (k > 1) {
      integrate(x, t, h, k - 1, nullptr, other_);
      other_ = x_new - other_;
      control_.consider(error_norm_(other_, x, x_new), k - 1);
    }
    if (k < kMaxOrder && count_ >= k + 1) {
      integrate(x, t, h, k + 1, nullptr, other_);
      other_ = x_new - other_;
      control_.consider(error_norm_(other_, x, x_new), k + 1);
    }
  }
  control_.settle();

  t_old_ = t;
  t_new_ = t + h;
  x_old_ = x;
  f_old_ = fs_[0];
  system.rhs(t_new_, x_new, f_new_);  // E
  x_new_ = x_new;
  has_step_ = true;
  for (int j = kHistory - 1; j > 0; --j) {
    fs_[static_cast<std::size_t>(j)].swap(fs_[static_cast<std::size_t>(j - 1)]);
    ts_[static_cast<std::size_t>(j)] = ts_[static_cast<std::size_t>(j - 1)];
  }
  fs_[0] = f_new_;
  ts_[0] = t_new_;
  x_last_ = x_new;
  count_ = std::min(count_ + 1, kHistory);
  return {.accepted = true, .error_norm = err, .next_step = h * control_.best_ratio()};
}

void AdamsStepper::interpolate(double t_query, Vector& x_out) const {
  if (!has_step_ || t_new_ == t_old_) {
    x_out = x_new_;
    return;
  }
  hermite_interpolate(t_old_, x_old_, f_old_, t_new_, x_new_, f_new_, t_query, x_out);
}

}  // namespace simverify::simulation::detail
