#pragma once
// x' = -a x + u: a first-order lag driven by the input. Driven by white noise u of intensity
// s (the `noise` input) it is the Ornstein-Uhlenbeck process with stationary variance
// s^2 / (2 a); with a = 0 it integrates the noise (a Wiener process, Var x(T) = s^2 T).
// Exact solution for constant u.
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

class OrnsteinUhlenbeck final : public Model {
 public:
  OrnsteinUhlenbeck();
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
  [[nodiscard]] bool has_exact_solution() const override { return true; }
  // Exact for constant u = context.u.value (ModelInfo::exact_solution_needs_constant_input).
  void exact_solution(double t, double t0, const Vector& x0, const Context& context,
                      Vector& x) const override;
};

}  // namespace simverify::simulation::models
