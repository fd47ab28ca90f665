#include "methods/extrapolation_stepper.hpp"

#include "methods/hermite.hpp"

#include <simverify/simulation/nonlinear_solver.hpp>

#include <stdexcept>
#include <string>

namespace simverify::simulation::detail {

void ExtrapolationStepper::initialize(const OdeSystem& /*system*/, double t0, const Vector& x0,
                                      const StepperSettings& settings) {
  if (settings.extrapolation_order < 1 || settings.extrapolation_order > kMaxOrder) {
    throw std::invalid_argument("ode14x: extrapolation_order must be in 1.." +
                                std::to_string(kMaxOrder) + ", got " +
                                std::to_string(settings.extrapolation_order));
  }
  if (settings.newton_iterations < 1) {
    throw std::invalid_argument("ode14x: newton_iterations must be >= 1, got " +
                                std::to_string(settings.newton_iterations));
  }
  order_ = settings.extrapolation_order;
  newton_iterations_ = settings.newton_iterations;
  const Eigen::Index n = x0.size();
  table_.assign(static_cast<std::size_t>(order_), Vector(n));
  for (Vector* v : {&y_, &z_, &f_, &delta_, &work_x_, &work_f_, &current_, &x_old_, &x_new_,
                    &f_old_, &f_new_}) {
    v->resize(n);
  }
  jacobian_.resize(n, n);
  w_.resize(n, n);
  lu_ = Eigen::PartialPivLU<Matrix>(n);
  t_old_ = t_new_ = t0;
  x_old_ = x_new_ = x0;
  f_new_valid_ = false;
}

void ExtrapolationStepper::minor_steps(const OdeSystem& system, double t, const Vector& x, double h,
                                       int substeps, Vector& y, StepWork& work) {
  const double step = h / substeps;
  w_ = (-step) * jacobian_;
  w_.diagonal().array() += 1.0;
  lu_.compute(w_);
  ++work.lu_factorizations;
  y = x;
  for (int i = 1; i <= substeps; ++i) {
    const double t_next = t + i * step;
    // Newton on z - y - step f(t_next, z) = 0 from z = y, W frozen for the major step.
    z_ = y;
    for (int iteration = 0; iteration < newton_iterations_; ++iteration) {
      system.rhs(t_next, z_, f_);
      work_f_ = y + step * f_ - z_;
      delta_.noalias() = lu_.solve(work_f_);
      z_ += delta_;
      ++work.nonlinear_iterations;
    }
    y.swap(z_);
  }
}

StepAttempt ExtrapolationStepper::do_step(const OdeSystem& system, double t, const Vector& x,
                                          double h, Vector& x_new, StepWork& work) {
  if (f_new_valid_ && t == t_new_ && x == x_new_) {
    f_old_ = f_new_;
  } else {
    system.rhs(t, x, f_old_);
  }
  evaluate_jacobian(system, t, x, f_old_, work_x_, work_f_, jacobian_);
  ++work.jacobian_evaluations;

  // Row j of the Aitken-Neville tableau overwrites row j-1 in place: table_[k] holds T_{j,k}.
  for (int j = 1; j <= order_; ++j) {
    minor_steps(system, t, x, h, j, current_, work);
    for (int k = 1; k < j; ++k) {
      // current_ = T_{j,k}, table_[k-1] = T_{j-1,k-1} (read before it is overwritten)
      const double ratio = static_cast<double>(j) / static_cast<double>(j - k) - 1.0;
      y_ = current_ + (current_ - table_[static_cast<std::size_t>(k - 1)]) / ratio;
      table_[static_cast<std::size_t>(k - 1)] = current_;
      current_.swap(y_);
    }
    table_[static_cast<std::size_t>(j - 1)] = current_;
  }
  x_new = table_[static_cast<std::size_t>(order_ - 1)];

  t_old_ = t;
  t_new_ = t + h;
  x_old_ = x;
  x_new_ = x_new;
  system.rhs(t_new_, x_new_, f_new_);
  f_new_valid_ = true;
  return {.accepted = true, .error_norm = 0.0, .next_step = h};
}

void ExtrapolationStepper::interpolate(double t_query, Vector& x_out) const {
  if (t_new_ == t_old_) {
    x_out = x_new_;
    return;
  }
  hermite_interpolate(t_old_, x_old_, f_old_, t_new_, x_new_, f_new_, t_query, x_out);
}

}  // namespace simverify::simulation::detail
