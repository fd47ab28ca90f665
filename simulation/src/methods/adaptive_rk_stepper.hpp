#pragma once
// Adaptive embedded explicit Runge-Kutta (Def 3.32, Thm 3.34, 3.35, Alg 4) behind the Stepper
// interface. One class for every embedded tableau: rk43, ode23, ode45/dopri54, ode87 differ
// only in their coefficients, their dense output and their controller parameters.
//
// do_step(t, x, h):
//   k_1 = f(t, x), or the last stage of the previous accepted step (FSAL) / the f evaluated
//         by initial_step, when (t, x) is where that step ended
//   x_new, e = Psi^2 - Psi^1 (Thm 3.34)   -- stages of tableau.b and tableau.b_hat
//   err = max_i |e_i| / max(rtol max(|x_i|, |x_new_i|), atol_i)   (Simulink solver list, eq. 3)
//   err <= 1: accept, continue with the higher-order x_new (local extrapolation, Thm 3.35
//             remark), next h from the PI controller
//   else:     reject, next h = h * max(0.2, eta err^(-1/(q+1)))
#include "methods/hermite.hpp"
#include "methods/step_control.hpp"

#include <simverify/simulation/stepper.hpp>
#include "explicit_runge_kutta.hpp"

#include <array>
#include <string>
#include <vector>

namespace simverify::simulation::detail {

// How x(t) inside the last accepted step is computed (one of the three).
struct DenseOutput {
  // The tableau's continuous extension, x(t + theta h) = x + h sum_i k_i sum_j
  // extension(i, j) theta^(j+1) (stages x degree), static in tableaux.cpp.
  const Matrix* extension = nullptr;
  // Without an extension: cubic Hermite on (x, f) at both ends (third order), or, with
  // substeps, septic Hermite on (x, f) at theta = 0, 1/3, 2/3, 1 (seventh order: local
  // error O(h^8)) whose interior states are steps of h/3 and 2h/3 of the method itself from
  // the step's start, taken on the first query inside a step (2 (s - 1) + 2 more f
  // evaluations per queried step; steps nobody queries cost nothing).
  bool substeps = false;
};

// Stage `stage`'s weight in the continuous extension at theta (x(t + theta h) = x + h sum_i
// k_i b_i(theta)): b_i(theta) = sum_j extension(i, j) theta^(j+1), in this order of
// operations (the generic and the fixed-size steppers agree bitwise through it).
[[nodiscard]] inline double extension_weight(const Matrix& extension, Eigen::Index stage,
                                             double theta) {
  double weight = 0.0;
  double power = theta;
  for (Eigen::Index j = 0; j < extension.cols(); ++j) {
    weight += extension(stage, j) * power;
    power *= theta;
  }
  return weight;
}

// An adaptive embedded method as the registry makes it: its tableau (static), dense output and
// controller.
struct AdaptiveRungeKuttaMethod {
  const ButcherTableau* tableau = nullptr;
  DenseOutput dense;
  StepControlParameters control;
};

// The adaptive explicit Runge-Kutta method of this name (methods/explicit_methods.cpp), or
// nullptr when `name` is none.
[[nodiscard]] const AdaptiveRungeKuttaMethod* adaptive_runge_kutta_method(const std::string& name);

class AdaptiveRungeKuttaStepper final : public Stepper {
 public:
  // The tableau must outlive the stepper (tableaux are static in tableaux.cpp).
  AdaptiveRungeKuttaStepper(const ButcherTableau& tableau, DenseOutput dense,
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
  // Valid on the last accepted step [t, t + h] until the next accepted step (with substeps
  // the system of that step must still be alive: it is evaluated on the first query).
  void interpolate(double t_query, Vector& x_out) const override;

 private:
  void accept(const OdeSystem& system, double t, const Vector& x, double h, const Vector& x_new);
  [[nodiscard]] const Vector& f_end() const {
    return f_end_in_stages_ ? dense_stages_.back() : f_end_;
  }
  // Septic Hermite through the step's ends and its two substep states (DenseOutput).
  void fit_substep_hermite() const;

  ExplicitRungeKutta rk_;
  const Matrix* dense_;
  bool substeps_;
  StepperSettings settings_;
  ErrorNorm error_norm_;
  StepSizeController controller_;
  int lower_order_;
  bool fsal_;  // last stage = f(t + h, x_new): the next k_1 for free

  Vector error_;
  // The last accepted step [t_old_, t_end_] for dense output and FSAL.
  double t_old_ = 0.0, t_end_ = 0.0;
  Vector x_old_, x_end_, f_old_, f_end_;
  bool f_end_valid_ = false;          // f_end() == f(t_end_, x_end_)
  bool f_end_in_stages_ = false;      // f_end() is the kept last stage, not f_end_
  std::vector<Vector> dense_stages_;  // stages of the last accepted step (swapped, not copied)
  Vector hinit_x_, hinit_f_;          // workspace of initial_step

  // Substep dense output, filled lazily by the const interpolate(): a cache of the last
  // accepted step, not observable state, hence mutable.
  const OdeSystem* system_ = nullptr;  // the system of the last accepted step
  mutable ExplicitRungeKutta substep_rk_;
  mutable HermiteNewton<4> substep_hermite_;
  mutable bool substep_hermite_valid_ = false;
  mutable std::array<Vector, 2> substep_x_;      // x at theta = 1/3, 2/3
  mutable std::array<Vector, 4> substep_slope_;  // h f at theta = 0, 1/3, 2/3, 1
  mutable Vector substep_error_;
};

}  // namespace simverify::simulation::detail
