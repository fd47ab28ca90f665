#pragma once
// Fixed-step explicit Runge-Kutta (Alg 1) behind the Stepper interface.
#include <simverify/simulation/stepper.hpp>
#include "explicit_runge_kutta.hpp"

namespace simverify::simulation::detail {

class ExplicitFixedStepper final : public Stepper {
 public:
  explicit ExplicitFixedStepper(const ButcherTableau& tableau) : rk_(tableau) {}

  [[nodiscard]] StepControl control() const override { return StepControl::fixed; }
  [[nodiscard]] int order() const override { return rk_.tableau().order; }
  void initialize(const OdeSystem& system, double t0, const Vector& x0,
                  const StepperSettings& settings) override;
  StepAttempt do_step(const OdeSystem& system, double t, const Vector& x, double h, Vector& x_new,
                      StepWork& work) override;
  // Cubic Hermite on the last step from x and f at both ends. f at the end is not part of a
  // fixed step (unless the tableau is FSAL), so it is evaluated here, once per step and only
  // when dense output is asked for: runs without interpolation pay nothing.
  void interpolate(double t_query, Vector& x_out) const override;

 private:
  ExplicitRungeKutta rk_;
  const OdeSystem* system_ = nullptr;  // of the last attempt, for the lazy f at the step end
  double t_old_ = 0.0, t_new_ = 0.0;
  Vector x_old_, x_new_;
  mutable Vector f_new_;
  mutable bool f_new_valid_ = false;
};

}  // namespace simverify::simulation::detail
