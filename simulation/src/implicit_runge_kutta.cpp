#include <simverify/simulation/implicit_runge_kutta.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace simverify::simulation {
namespace {

// True when A_ij = int_0^{c_i} l_j and b_j = int_0^1 l_j for the Lagrange basis l_j on the
// nodes c (Hairer-Norsett-Wanner I, Sec. II.7): then the stages define the collocation
// polynomial, which is the natural dense output.
bool is_collocation(const ButcherTableau& t, const Matrix& basis) {
  const Eigen::Index s = t.c.size();
  auto integral = [&](Eigen::Index j, double upper) {
    double sum = 0.0;
    double power = upper;
    for (Eigen::Index m = 0; m < s; ++m) {
      sum += basis(m, j) * power / static_cast<double>(m + 1);
      power *= upper;
    }
    return sum;
  };
  for (Eigen::Index j = 0; j < s; ++j) {
    if (std::abs(integral(j, 1.0) - t.b(j)) > 1e-12) return false;
    for (Eigen::Index i = 0; i < s; ++i) {
      if (std::abs(integral(j, t.c(i)) - t.a(i, j)) > 1e-12) return false;
    }
  }
  return true;
}

}  // namespace

ImplicitRungeKutta::ImplicitRungeKutta(const ButcherTableau& tableau, NonlinearSolver solver)
    : tableau_(&tableau), solver_(solver), s_(tableau.stages()) {
  const Eigen::Index s = s_;
  a_norm_ = tableau.a.cwiseAbs().rowwise().sum().maxCoeff();
  for (Eigen::Index i = 0; i < s; ++i) {
    zero_row_.push_back(tableau.a.row(i).isZero(0.0) && tableau.c(i) == 0.0);
    if (tableau.c(i) == 1.0 && tableau.a.row(i).transpose() == tableau.b) {
      end_stage_ = static_cast<int>(i);
    }
  }
  // Lagrange basis in monomials: V L = I with V_im = c_i^m (distinct nodes only).
  Matrix vandermonde(s, s);
  for (Eigen::Index i = 0; i < s; ++i) {
    for (Eigen::Index m = 0; m < s; ++m) vandermonde(i, m) = std::pow(tableau.c(i), m);
  }
  Eigen::FullPivLU<Matrix> lu(vandermonde);
  if (lu.isInvertible()) {
    collocation_ = lu.inverse();
    collocation_output_ = is_collocation(tableau, collocation_) && s >= std::min(tableau.order, 3);
  }
}

void ImplicitRungeKutta::resize(Eigen::Index dimension, const StepperSettings& settings) {
  settings_ = settings;
  n_ = dimension;
  const Eigen::Index sn = s_ * n_;
  k_.resize(sn);
  f_.resize(sn);
  delta_.resize(sn);
  for (Vector* v : {&stage_state_, &f_tmp_, &thresholds_, &work_x_, &work_f_, &jacobian_x_, &x_old_,
                    &x_new_, &f_old_, &f_new_}) {
    v->resize(n_);
  }
  jacobian_.resize(n_, n_);
  filter_matrix_.resize(n_, n_);
  iteration_matrix_.resize(sn, sn);
  lu_ = Eigen::PartialPivLU<Matrix>(sn);
  filter_lu_ = Eigen::PartialPivLU<Matrix>(n_);
  jacobian_valid_ = false;
}

void ImplicitRungeKutta::evaluate_stages(const OdeSystem& system, double t, const Vector& x,
                                         double h) {
  // F(k) of (3.19): f(t + c_i h, x + h sum_j a_ij k_j), stage by stage.
  for (Eigen::Index i = 0; i < s_; ++i) {
    if (zero_row_[static_cast<std::size_t>(i)]) {
      f_.segment(i * n_, n_) = f_old_;
      continue;
    }
    stage_state_ = x;
    for (Eigen::Index j = 0; j < s_; ++j) {
      const double a = tableau_->a(i, j);
      if (a != 0.0) stage_state_.noalias() += (h * a) * k_.segment(j * n_, n_);
    }
    system.rhs(t + tableau_->c(i) * h, stage_state_, f_tmp_);
    f_.segment(i * n_, n_) = f_tmp_;
  }
}

void ImplicitRungeKutta::update_jacobian(const OdeSystem& system, double t, const Vector& x,
                                         StepWork& work) {
  // J at the start of the step; a rejected step retries from the same (t, x) with the same J.
  if (jacobian_valid_ && t == jacobian_t_ && x == jacobian_x_) return;
  evaluate_jacobian(system, t, x, f_old_, work_x_, work_f_, jacobian_);
  ++work.jacobian_evaluations;
  jacobian_valid_ = true;
  jacobian_t_ = t;
  jacobian_x_ = x;
}

StageSolveResult ImplicitRungeKutta::step(const OdeSystem& system, double t, const Vector& x,
                                          double h, Vector& x_next, StepWork& work) {
  system.rhs(t, x, f_old_);
  for (Eigen::Index i = 0; i < s_; ++i) k_.segment(i * n_, n_) = f_old_;
  stage_thresholds(x, h, tableau_->order, settings_, thresholds_);

  const StageSolveResult result = solver_ == NonlinearSolver::newton
                                      ? solve_newton(system, t, x, h, work)
                                      : solve_fixed_point(system, t, x, h, work);
  work.nonlinear_iterations += result.iterations;
  if (!result.converged()) return result;

  // (3.20): x_next = x + h sum_i b_i k_i
  x_next = x;
  for (Eigen::Index i = 0; i < s_; ++i) {
    x_next.noalias() += (h * tableau_->b(i)) * k_.segment(i * n_, n_);
  }
  h_ = h;
  x_old_ = x;
  x_new_ = x_next;
  if (end_stage_ >= 0) {
    f_new_ = k_.segment(end_stage_ * n_, n_);
  } else if (!collocation_output_) {
    system.rhs(t + h, x_next, f_new_);
  }
  return result;
}

StageSolveResult ImplicitRungeKutta::solve_fixed_point(const OdeSystem& system, double t,
                                                       const Vector& x, double h, StepWork& work) {
  StageSolveResult result;
  if (system.has_jacobian()) {
    // Thm 3.31 a priori: F is Lipschitz in k with constant h L ||A||, L = ||df/dx||_inf.
    update_jacobian(system, t, x, work);
    const double bound = std::abs(h) * jacobian_.cwiseAbs().rowwise().sum().maxCoeff() * a_norm_;
    if (bound >= 1.0) {
      result.failure = StageFailure::contraction_bound;
      result.contraction = bound;
      return result;
    }
  }
  // Alg 3: k^{i+1} = F(k^i) until the increment is below the threshold.
  fixed_point_monitor_.start();
  for (;;) {
    evaluate_stages(system, t, x, h);
    delta_ = f_ - k_;
    k_.swap(f_);
    const double norm = std::abs(h) * threshold_norm(delta_, thresholds_);
    const IterationStatus status = fixed_point_monitor_.update(norm);
    result.iterations = fixed_point_monitor_.iterations();
    result.contraction = fixed_point_monitor_.contraction_estimate();
    if (status == IterationStatus::converged) return result;
    if (status == IterationStatus::diverged) {
      result.failure = StageFailure::fixed_point_diverged;
      return result;
    }
  }
}

StageSolveResult ImplicitRungeKutta::solve_newton(const OdeSystem& system, double t,
                                                  const Vector& x, double h, StepWork& work) {
  update_jacobian(system, t, x, work);
  // Simplified Newton on G(k) = k - F(k): dG/dk ~ I - h (A (x) J), J frozen at (t, x).
  for (Eigen::Index i = 0; i < s_; ++i) {
    for (Eigen::Index j = 0; j < s_; ++j) {
      iteration_matrix_.block(i * n_, j * n_, n_, n_) = (-h * tableau_->a(i, j)) * jacobian_;
    }
  }
  iteration_matrix_.diagonal().array() += 1.0;
  lu_.compute(iteration_matrix_);
  ++work.lu_factorizations;

  StageSolveResult result;
  newton_monitor_.start();
  for (;;) {
    evaluate_stages(system, t, x, h);
    f_ -= k_;  // -G(k)
    delta_.noalias() = lu_.solve(f_);
    k_ += delta_;
    const double norm = std::abs(h) * threshold_norm(delta_, thresholds_);
    const IterationStatus status = newton_monitor_.update(norm);
    result.iterations = newton_monitor_.iterations();
    result.contraction = newton_monitor_.contraction_estimate();
    if (status == IterationStatus::converged) break;
    if (status == IterationStatus::diverged) {
      result.failure = StageFailure::newton_diverged;
      return result;
    }
  }
  if (tableau_->is_embedded()) {
    const double gamma = tableau_->a(s_ - 1, s_ - 1);
    filter_matrix_ = (-h * gamma) * jacobian_;
    filter_matrix_.diagonal().array() += 1.0;
    filter_lu_.compute(filter_matrix_);
    ++work.lu_factorizations;
  }
  return result;
}

void ImplicitRungeKutta::error_estimate(Vector& error) {
  if (!tableau_->is_embedded()) {
    throw std::logic_error("implicit Runge-Kutta: tableau '" + tableau_->name +
                           "' has no embedded weights");
  }
  const Vector& b_hat = *tableau_->b_hat;
  error.setZero();
  for (Eigen::Index i = 0; i < s_; ++i) {
    error.noalias() += (h_ * (tableau_->b(i) - b_hat(i))) * k_.segment(i * n_, n_);
  }
  if (solver_ == NonlinearSolver::newton) {
    work_f_ = error;
    error.noalias() = filter_lu_.solve(work_f_);
  }
}

void ImplicitRungeKutta::interpolate(double theta, Vector& x_out) const {
  if (collocation_output_) {
    // u(t + theta h) = x + h sum_j k_j int_0^theta l_j(tau) dtau
    x_out = x_old_;
    for (Eigen::Index j = 0; j < s_; ++j) {
      double weight = 0.0;
      double power = theta;
      for (Eigen::Index m = 0; m < s_; ++m) {
        weight += collocation_(m, j) * power / static_cast<double>(m + 1);
        power *= theta;
      }
      x_out.noalias() += (h_ * weight) * k_.segment(j * n_, n_);
    }
    return;
  }
  const double s2 = theta * theta;
  const double s3 = s2 * theta;
  x_out = (2 * s3 - 3 * s2 + 1) * x_old_ + ((s3 - 2 * s2 + theta) * h_) * f_old_ +
          (-2 * s3 + 3 * s2) * x_new_ + ((s3 - s2) * h_) * f_new_;
}

}  // namespace simverify::simulation
