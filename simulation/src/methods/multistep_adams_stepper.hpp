#pragma once
// Simulink/MATLAB ode113 as a variable-step, variable-order Adams-Bashforth-Moulton PECE
// method of orders 1-12 (Simulink solver list: "Prediktor-Korrektor Verfahren vom Typ ABAM",
// variable order; L. F. Shampine, M. K. Gordon, "Computer solution of ordinary differential
// equations", 1975, is the code MATLAB follows). Variable-coefficient form: with the k last
// accepted times tau_1 .. tau_k and their derivatives f_j,
//   P: x_pred = x + int_t^{t+h} p_AB(s) ds,  p_AB interpolating (tau_j, f_j)   (order k)
//   E: f_pred = f(t + h, x_pred)
//   C: x_new  = x + int_t^{t+h} p_AM(s) ds,  p_AM also through (t + h, f_pred) (order k+1)
//   E: f_new  = f(t + h, x_new)
// The integrals of the Lagrange basis are exact 7-point Gauss-Legendre sums (degree <= 12).
// Error estimate: x_new - x_pred, the predictor's local error; the run continues with the
// more accurate corrector (local extrapolation, as Shampine-Gordon). After k+1 steps at one
// order, predictors of orders k-1 and k+1 give the estimates for the order choice (biases
// 1.3, 1.2, 1.4). Dense output: cubic Hermite on the last step (f at both ends known).
#include "methods/step_control.hpp"
#include "methods/variable_order_control.hpp"

#include <simverify/simulation/stepper.hpp>

#include <array>

namespace simverify::simulation::detail {

class AdamsStepper final : public Stepper {
 public:
  static constexpr int kMaxOrder = 12;

  AdamsStepper();

  [[nodiscard]] StepControl control() const override { return StepControl::adaptive; }
  // The current predictor order (1 after initialize(), up to kMaxOrder).
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
  static constexpr int kHistory = kMaxOrder + 1;
  static constexpr int kQuadrature = 7;

  void restart(const OdeSystem& system, double t, const Vector& x);
  // x + int_t^{t+h} of the polynomial through `extra` (t + h, f_extra) when given, and the
  // newest `points` stored (tau_j, f_j).
  void integrate(const Vector& x, double t, double h, int points, const Vector* f_extra,
                 Vector& out);

  StepperSettings settings_;
  ErrorNorm error_norm_;
  std::array<double, kQuadrature> nodes_{};    // Gauss-Legendre on [0, 1]
  std::array<double, kQuadrature> weights_{};  // (sum 1)
  std::array<Vector, kHistory> fs_;
  std::array<double, kHistory> ts_{};
  int count_ = 0;
  VariableOrderControl control_;
  Vector x_last_, x_pred_, f_pred_, error_, other_;
  // The last accepted step for dense output.
  bool has_step_ = false;
  double t_old_ = 0.0, t_new_ = 0.0;
  Vector x_old_, f_old_, x_new_, f_new_;
};

}  // namespace simverify::simulation::detail
