#pragma once
// Undamped spring pendulum (elastic pendulum): a mass m on a massless spring of stiffness k
// and rest length L, hinged at the origin, swinging in the vertical plane under gravity g.
// Positions (x, y) (y up), velocities (vx, vy):
//   (x, y)'' = -(k / m) (1 - L / r) (x, y) - (0, g),  r = sqrt(x^2 + y^2),
// conservative (energy output) and x'' = g(q) with no dependence on velocity, the structure
// Runge-Kutta-Nystrom methods need. No closed-form solution: error measures use a reference.
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

class SpringPendulum final : public Model {
 public:
  SpringPendulum();
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  void output(double t, const Vector& x, const Context& context, Vector& y) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
  void acceleration(double t, const Vector& q, const Context& context, Vector& qdd) const override;
};

}  // namespace simverify::simulation::models
