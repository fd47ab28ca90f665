#pragma once
// Quarter-car test bench (lecture Sec 2.4, Fig 2.4), from d'Alembert's principle:
//   m1 y1'' = -d1 (y1' - y2') - s1 (y1 - y2)
//   m2 y2'' =  d1 (y1' - y2') + s1 (y1 - y2) - d2 (y2' - u') - s2 (y2 - u)
// with the road height u and its rate u' (both from the input signal). States in the order
// (y1, y1', y2, y2') = (chassis position, chassis velocity, wheel position, wheel velocity),
// measured from the static equilibrium (gravity is balanced by the static spring
// deflections and drops out). Linear: x' = A x + B (u, u'), so the Jacobian is A and, for a
// constant road height, exp([[A, b], [0, 0]] tau) gives the exact solution.
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

class QuarterCar final : public Model {
 public:
  QuarterCar();
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  [[nodiscard]] std::unique_ptr<Stepper> fixed_size_stepper(const std::string& method,
                                                            const Context& context) const override;
  void output(double t, const Vector& x, const Context& context, Vector& y) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
  [[nodiscard]] bool has_exact_solution() const override { return true; }
  // Exact for a constant road height u = context.u.value (u' = 0).
  void exact_solution(double t, double t0, const Vector& x0, const Context& context,
                      Vector& x) const override;
};

}  // namespace simverify::simulation::models
