#pragma once
// Vertical throw (continuous-models slides, ch. 4.2 "Freier Fall / Vertikaler Wurf"): y'' = -g - c
// y' with an optional linear drag rate c (0: the slides' model without air resistance); states (y,
// v = y'). Event "ground": y = 0 while falling, terminal. Exact solution (ignoring the ground) for
// every c >= 0.
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

class VerticalThrow final : public Model {
 public:
  VerticalThrow();
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  [[nodiscard]] std::unique_ptr<Stepper> fixed_size_stepper(const std::string& method,
                                                            const Context& context) const override;
  // y'' = -g: the drag term is the velocity dependence that rules Nystrom methods out.
  void acceleration(double t, const Vector& q, const Context& context, Vector& qdd) const override;
  [[nodiscard]] std::optional<std::string> velocity_dependence(
      std::span<const double> p) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
  [[nodiscard]] bool has_exact_solution() const override { return true; }
  void exact_solution(double t, double t0, const Vector& x0, const Context& context,
                      Vector& x) const override;
  double event_value(std::size_t index, double t, const Vector& x,
                     const Context& context) const override;
  EventAction on_event(std::size_t index, double t, Vector& x, Context& context) const override;
};

}  // namespace simverify::simulation::models
