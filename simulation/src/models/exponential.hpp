#pragma once
// x' = lambda x, x(t) = x0 exp(lambda (t - t0)) (lecture Task 2.12).
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

class Exponential final : public Model {
 public:
  Exponential();
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
  [[nodiscard]] bool has_exact_solution() const override { return true; }
  void exact_solution(double t, double t0, const Vector& x0, const Context& context,
                      Vector& x) const override;
};

}  // namespace simverify::simulation::models
