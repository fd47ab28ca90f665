#pragma once
// Simulink ode14x (Simulink solver list, Fig. 2): fixed-step extrapolation of implicit Euler. One
// major step of size h is computed m times with n_j = j minor steps of size h/n_j (j = 1..m, the
// harmonic sequence); each minor step solves the implicit Euler equation
//   y_{i+1} = y_i + (h/n_j) f(t_{i+1}, y_{i+1})
// with a fixed number of Newton iterations started at y_i, with W_j = I - (h/n_j) J and
// J = df/dx at the start of the major step (1 iteration: linearly implicit Euler, Simulink's
// default). The results T_{j,1} are extrapolated to h -> 0 by Aitken-Neville for an error
// expansion in powers of h (Hairer-Wanner II, Sec. IV.9):
//   T_{j,k+1} = T_{j,k} + (T_{j,k} - T_{j-1,k}) / (n_j / n_{j-k} - 1)
// and T_{m,m} has order m. settings.extrapolation_order = m (default 4) and
// settings.newton_iterations (default 1) are Simulink's two ode14x parameters.
#include <simverify/simulation/stepper.hpp>

#include <Eigen/LU>

#include <vector>

namespace simverify::simulation::detail {

class ExtrapolationStepper final : public Stepper {
 public:
  static constexpr int kMaxOrder = 12;  // beyond this the harmonic sequence amplifies round-off

  [[nodiscard]] StepControl control() const override { return StepControl::fixed; }
  [[nodiscard]] int order() const override { return order_; }
  void initialize(const OdeSystem& system, double t0, const Vector& x0,
                  const StepperSettings& settings) override;
  StepAttempt do_step(const OdeSystem& system, double t, const Vector& x, double h, Vector& x_new,
                      StepWork& work) override;
  // Cubic Hermite on the last step from f at both ends (f at the end is reused as f at the
  // start of the next step).
  void interpolate(double t_query, Vector& x_out) const override;

 private:
  void minor_steps(const OdeSystem& system, double t, const Vector& x, double h, int substeps,
                   Vector& y, StepWork& work);

  int order_ = 4;
  int newton_iterations_ = 1;
  Eigen::PartialPivLU<Matrix> lu_;
  Matrix jacobian_, w_;
  std::vector<Vector> table_;  // row of the Aitken-Neville tableau, updated in place
  Vector y_, z_, f_, delta_, work_x_, work_f_, current_;
  // The last step, for dense output and reuse of f(t, x).
  double t_old_ = 0.0, t_new_ = 0.0;
  Vector x_old_, x_new_, f_old_, f_new_;
  bool f_new_valid_ = false;
};

}  // namespace simverify::simulation::detail
