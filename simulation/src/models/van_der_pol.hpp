#pragma once
// Van der Pol oscillator x'' = mu (1 - x^2) x' - x; states (x, v = x'). A limit cycle for
// every mu > 0; non-stiff at mu = 1, increasingly stiff for large mu (Hairer & Wanner,
// Solving ODEs II, Sec IV.1), so one model exercises both solver families. No closed form.
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

class VanDerPol final : public Model {
 public:
  VanDerPol();
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  [[nodiscard]] std::unique_ptr<Stepper> fixed_size_stepper(const std::string& method,
                                                            const Context& context) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
};

}  // namespace simverify::simulation::models
