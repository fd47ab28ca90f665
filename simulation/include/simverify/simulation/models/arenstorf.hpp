#pragma once
// Arenstorf orbit: the restricted three-body problem (earth, moon, a light satellite) in the
// rotating frame (Hairer, Norsett & Wanner, Solving ODEs I, Sec II.0, eq. (0.1)):
//   x'' = x + 2 y' - mu' (x + mu) / D1 - mu (x - mu') / D2
//   y'' = y - 2 x' - mu' y / D1 - mu y / D2
//   D1 = ((x + mu)^2 + y^2)^(3/2), D2 = ((x - mu')^2 + y^2)^(3/2), mu' = 1 - mu.
// States (x, y, x', y'). From kArenstorfX0 the orbit is periodic with period kArenstorfPeriod,
// so x(T) = x0 is the reference for error measures although there is no closed form.
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

inline constexpr double kArenstorfMu = 0.012277471;
inline constexpr double kArenstorfPeriod = 17.0652165601579625588917206249;
inline constexpr double kArenstorfVy0 = -2.00158510637908252240537862224;

class Arenstorf final : public Model {
 public:
  Arenstorf();
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  [[nodiscard]] std::unique_ptr<Stepper> fixed_size_stepper(const std::string& method,
                                                            const Context& context) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
};

}  // namespace simverify::simulation::models
