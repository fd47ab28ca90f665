#pragma once
// m y'' + d y' + k y = F(t), F = u (continuous-models slides, ch. 4.3 Federpendel, with a damper
// and a driving force); states (y, v = y'). Exact solution for constant F in every damping regime:
// the deviation from the static deflection F / k is a free damped oscillator
// (models/damped_oscillator).
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

class SpringMassDamper final : public Model {
 public:
  SpringMassDamper();
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  [[nodiscard]] std::unique_ptr<Stepper> fixed_size_stepper(const std::string& method,
                                                            const Context& context) const override;
  // y'' = (F - k y) / m when d = 0 (the undamped spring pendulum of the continuous-models slides).
  void acceleration(double t, const Vector& q, const Context& context, Vector& qdd) const override;
  [[nodiscard]] std::optional<std::string> velocity_dependence(
      std::span<const double> p) const override;
  void output(double t, const Vector& x, const Context& context, Vector& y) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
  [[nodiscard]] bool has_exact_solution() const override { return true; }
  // Exact for constant F = context.u.value (ModelInfo::exact_solution_needs_constant_input).
  void exact_solution(double t, double t0, const Vector& x0, const Context& context,
                      Vector& x) const override;
};

}  // namespace simverify::simulation::models
