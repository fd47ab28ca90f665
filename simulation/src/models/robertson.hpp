#pragma once
// Robertson's chemical kinetics (Robertson 1966; Hairer & Wanner, Solving ODEs II,
// Sec IV.1 eq. (1.3)), the classic stiff test problem:
//   y1' = -k1 y1 + k3 y2 y3,  y2' = k1 y1 - k2 y2^2 - k3 y2 y3,  y3' = k2 y2^2.
// Rate constants span nine orders of magnitude; y1 + y2 + y3 is conserved.
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

class Robertson final : public Model {
 public:
  Robertson();
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  [[nodiscard]] std::unique_ptr<Stepper> fixed_size_stepper(const std::string& method,
                                                            const Context& context) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
};

}  // namespace simverify::simulation::models
