#pragma once
// Simulink/MATLAB ode15s as a variable-step, variable-order BDF of orders 1-5 (the backward
// differentiation formulas of Curtiss and Hirschfelder, as in the Simulink solver list; MATLAB uses
// the related NDFs, which differ by a kappa term in the corrector; this code uses kappa = 0, plain
// BDF). Variable-coefficient form: with nodes tau_0 = t + h and the k previous accepted times tau_1
// .. tau_k, the polynomial through (tau_j, x_j) has p'(tau_0) = sum_j alpha_j x_j (alpha_j the
// derivatives of the Lagrange basis at tau_0), and the step solves
//   alpha_0 x + sum_{j>=1} alpha_j x_j = f(t + h, x)
// by simplified Newton with W = I - J / alpha_0 (J reused across steps, refreshed when
// Newton fails, contracts slowly or J is 50 steps old; W refactored only when alpha_0 or J
// changed). Predictor: the polynomial
// through the k+1 newest points extrapolated to t + h (x + h f at the very first step).
// Error estimate of order k: (h / (t + h - tau_{k+1})) (x_new - x_pred), which is the
// classical 1/(k+1) (x_new - x_pred) of constant steps. After k+1 steps at one order the
// same estimate with k-1 and k+1 (one point fewer/more) chooses the order whose step is
// largest (biases 1.3, 1.2, 1.4 as in Shampine-Reichelt 1997). Steps grow by at most 2 and
// not at all for ratios below 1.2 (fewer refactorizations, steadier coefficients).
// Dense output: the interpolating polynomial through x_new and the k previous points.
#include "methods/step_control.hpp"
#include "methods/variable_order_control.hpp"

#include <simverify/simulation/nonlinear_solver.hpp>
#include <simverify/simulation/stepper.hpp>

#include <Eigen/LU>

#include <array>

namespace simverify::simulation::detail {

class BdfStepper final : public Stepper {
 public:
  static constexpr int kMaxOrder = 5;

  [[nodiscard]] StepControl control() const override { return StepControl::adaptive; }
  // The current order (1 after initialize(), up to kMaxOrder).
  [[nodiscard]] int order() const override { return control_.order(); }
  void initialize(const OdeSystem& system, double t0, const Vector& x0,
                  const StepperSettings& settings) override;
  [[nodiscard]] double initial_step(const OdeSystem& system, double t0, const Vector& x0,
                                    double t_end) override;
  StepAttempt do_step(const OdeSystem& system, double t, const Vector& x, double h, Vector& x_new,
                      StepWork& work) override;
  // Valid on the last accepted step until the next accepted step.
  void interpolate(double t_query, Vector& x_out) const override;

 private:
  static constexpr int kHistory = kMaxOrder + 2;

  void restart(double t, const Vector& x);
  // Polynomial through the newest `points` stored (t, x) (index 0 newest), evaluated at t.
  void extrapolate(int points, double t, Vector& out) const;
  bool solve_corrector(const OdeSystem& system, double t_new, int order, Vector& x_new,
                       StepWork& work);
  void refresh_jacobian(const OdeSystem& system, StepWork& work);

  StepperSettings settings_;
  ErrorNorm error_norm_;
  ConvergenceMonitor newton_{4, 0};
  std::array<Vector, kHistory> xs_;
  std::array<double, kHistory> ts_{};
  int count_ = 0;  // points stored
  VariableOrderControl control_;
  int dense_points_ = 1;  // points of the dense-output polynomial (ts_[0] is the newest)

  Matrix jacobian_, w_;
  Eigen::PartialPivLU<Matrix> lu_;
  bool jacobian_valid_ = false;
  bool jacobian_fresh_ = false;  // evaluated at the start of the current step
  int jacobian_age_ = 0;         // accepted steps since J was evaluated
  bool lu_valid_ = false;
  double lu_alpha_ = 0.0;
  Vector f_, pred_, history_, rhs_, delta_, error_, thresholds_, work_x_, work_f_, other_;
};

}  // namespace simverify::simulation::detail
