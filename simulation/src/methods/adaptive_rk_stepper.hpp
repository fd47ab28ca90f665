#pragma once
// Adaptive embedded explicit Runge-Kutta (Def 3.32, Thm 3.34, 3.35, Alg 4) behind the Stepper
// interface. One class for every embedded tableau: rk43, ode23, ode45/dopri54 differ only in
// their coefficients, their dense output and their controller parameters.
//
// do_step(t, x, h):
//   k_1 = f(t, x), or the last stage of the previous accepted step (FSAL) / the f evaluated
//         by initial_step, when (t, x) is where that step ended
//   x_new, e = Psi^2 - Psi^1 (Thm 3.34)   -- stages of tableau.b and tableau.b_hat
//   err = max_i |e_i| / max(rtol max(|x_i|, |x_new_i|), atol_i)   (Simulink solver list, eq. 3)
//   err <= 1: accept, continue with the higher-order x_new (local extrapolation, Thm 3.35
//             remark), next h from the PI controller
//   else:     reject, next h = h * max(0.2, eta err^(-1/(q+1)))
#include "methods/step_control.hpp"

#include <simverify/simulation/stepper.hpp>
#include "explicit_runge_kutta.hpp"

#include <vector>

namespace simverify::simulation::detail {

class AdaptiveRungeKuttaStepper final : public Stepper {
 public:
  // dense: optional continuous extension, x(t + theta h) = x + h sum_i k_i sum_j
  // dense(i, j) theta^(j+1) (stages x degree); nullptr gives cubic Hermite on (x, f) at both
  // ends. The tableau and dense matrix must outlive the stepper (they are static in
  // tableaux.cpp).
  AdaptiveRungeKuttaStepper(const ButcherTableau& tableau, const Matrix* dense,
                            StepControlParameters control);

  [[nodiscard]] StepControl control() const override { return StepControl::adaptive; }
  [[nodiscard]] int order() const override { return rk_.tableau().order; }

  void initialize(const OdeSystem& system, double t0, const Vector& x0,
                  const StepperSettings& settings) override;
  // Hairer-Norsett-Wanner I, Sec. II.4 (DOPRI5's hinit): two f evaluations, the first of
  // which is reused as k_1 of the first step.
  [[nodiscard]] double initial_step(const OdeSystem& system, double t0, const Vector& x0,
                                    double t_end) override;
  StepAttempt do_step(const OdeSystem& system, double t, const Vector& x, double h, Vector& x_new,
                      StepWork& work) override;
  // Valid on the last accepted step [t, t + h] until the next accepted step.
  void interpolate(double t_query, Vector& x_out) const override;

 private:
  void accept(const OdeSystem& system, double t, const Vector& x, double h, const Vector& x_new);

  ExplicitRungeKutta rk_;
  const Matrix* dense_;
  StepperSettings settings_;
  ErrorNorm error_norm_;
  StepSizeController controller_;
  int lower_order_;
  bool fsal_;  // last stage = f(t + h, x_new): the next k_1 for free

  Vector error_;
  // The last accepted step [t_old_, t_end_] for dense output and FSAL.
  double t_old_ = 0.0, t_end_ = 0.0;
  Vector x_old_, x_end_, f_old_, f_end_;
  bool f_end_valid_ = false;          // f_end_ == f(t_end_, x_end_)
  std::vector<Vector> dense_stages_;  // stages of the last accepted step (swapped, not copied)
  Vector hinit_x_, hinit_f_;          // workspace of initial_step
};

}  // namespace simverify::simulation::detail
