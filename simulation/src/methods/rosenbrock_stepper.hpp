#pragma once
// Simulink/MATLAB ode23s: the modified Rosenbrock pair 2(3) of L. F. Shampine, M. W. Reichelt,
// "The MATLAB ODE suite", SIAM J. Sci. Comput. 18(1), 1997, Sec. 3. Linearly implicit: no
// nonlinear iteration, one LU of W = I - h d J per attempt, d = 1/(2 + sqrt 2); it is a
// W-method, so a Jacobian that is not exact costs accuracy but not stability of the
// formula's order 2. J (and df/dt by a forward difference) are evaluated at every new step
// (Simulink solver list: "aus Stabilitaetsgruenden zu jedem Zeitschritt"); FSAL: F_2 of an accepted
// step is F_0 of the next.
//   F_0 = f(t, x),  T = df/dt(t, x)
//   k_1 = W^-1 (F_0 + h d T)
//   F_1 = f(t + h/2, x + h/2 k_1)
//   k_2 = W^-1 (F_1 - k_1) + k_1
//   x_new = x + h k_2                                        (order 2)
//   F_2 = f(t + h, x_new)
//   k_3 = W^-1 (F_2 - e32 (k_2 - F_1) - 2 (k_1 - F_0) + h d T),  e32 = 6 + sqrt 2
//   error = h/6 (k_1 - 2 k_2 + k_3)                          (3rd-order estimate)
// Dense output (same paper): x(t + s h) = x + h (s(1-s) k_1 + s(s-2d) k_2) / (1 - 2d).
#include "methods/step_control.hpp"

#include <simverify/simulation/stepper.hpp>

#include <Eigen/LU>

namespace simverify::simulation::detail {

class RosenbrockStepper final : public Stepper {
 public:
  RosenbrockStepper();

  [[nodiscard]] StepControl control() const override { return StepControl::adaptive; }
  [[nodiscard]] int order() const override { return 2; }
  void initialize(const OdeSystem& system, double t0, const Vector& x0,
                  const StepperSettings& settings) override;
  [[nodiscard]] double initial_step(const OdeSystem& system, double t0, const Vector& x0,
                                    double t_end) override;
  StepAttempt do_step(const OdeSystem& system, double t, const Vector& x, double h, Vector& x_new,
                      StepWork& work) override;
  // Valid on the last accepted step until the next attempt.
  void interpolate(double t_query, Vector& x_out) const override;

 private:
  void prepare_point(const OdeSystem& system, double t, const Vector& x, double h, StepWork& work);

  StepperSettings settings_;
  ErrorNorm error_norm_;
  StepSizeController controller_;
  Eigen::PartialPivLU<Matrix> lu_;
  Matrix jacobian_, w_;
  Vector f0_, f1_, f2_, dfdt_, k1_, k2_, k3_, rhs_, stage_, error_, work_x_, work_f_;
  // (t, x) at which f0_, jacobian_ and dfdt_ were evaluated.
  bool point_valid_ = false;
  bool jacobian_current_ = false;  // jacobian_ and dfdt_ belong to point_
  double point_t_ = 0.0;
  Vector point_x_;
  // The last attempted step, for dense output.
  double t_old_ = 0.0, h_ = 0.0;
  Vector x_old_;
  bool has_step_ = false;
};

}  // namespace simverify::simulation::detail
