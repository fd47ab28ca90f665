#pragma once
// Implicit Runge-Kutta (Alg 2) behind the Stepper interface: fixed step (implicit_euler,
// trapezoidal, gauss2, radau2a) or adaptive with an embedded ESDIRK pair (ode23t, ode23tb).
//
// do_step(t, x, h):
//   solve the stage equations (Alg 3 or simplified Newton, settings.nonlinear)
//   not solved: fixed step -> throw (ContractionError / NewtonError: h is too large);
//               adaptive   -> reject, retry with h/4 (or h/(2 h L ||A||) for Thm 3.31)
//   fixed step: accept
//   adaptive:   err = ||x_new - x_hat|| (Simulink solver list, eq. 3); accept iff err <= 1, next h
//   from
//               the controller of Thm 3.35 with q = the propagated order
#include "methods/step_control.hpp"

#include <simverify/simulation/implicit_runge_kutta.hpp>
#include <simverify/simulation/stepper.hpp>

namespace simverify::simulation::detail {

class ImplicitRungeKuttaStepper final : public Stepper {
 public:
  // The tableau must outlive the stepper (tableaux are static in implicit_tableaux.cpp).
  ImplicitRungeKuttaStepper(const ButcherTableau& tableau, StepControl control);

  [[nodiscard]] StepControl control() const override { return control_; }
  [[nodiscard]] int order() const override { return rk_.tableau().order; }
  void initialize(const OdeSystem& system, double t0, const Vector& x0,
                  const StepperSettings& settings) override;
  [[nodiscard]] double initial_step(const OdeSystem& system, double t0, const Vector& x0,
                                    double t_end) override;
  StepAttempt do_step(const OdeSystem& system, double t, const Vector& x, double h, Vector& x_new,
                      StepWork& work) override;
  // Valid on the last accepted step until the next attempt.
  void interpolate(double t_query, Vector& x_out) const override;

 private:
  StepAttempt fail(const StageSolveResult& result, double t, double h);

  ImplicitRungeKutta rk_;
  StepControl control_;
  StepperSettings settings_;
  ErrorNorm error_norm_;
  StepSizeController controller_;
  Vector error_, x_start_;
  double t_old_ = 0.0, t_new_ = 0.0;
  bool has_step_ = false;
};

}  // namespace simverify::simulation::detail
