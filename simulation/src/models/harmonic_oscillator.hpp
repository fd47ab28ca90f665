#pragma once
// x'' = -omega^2 x (continuous-models slides, ch. 4.3 "Ungedaempftes Federpendel", omega = sqrt(k /
// m)); states (x, v = x'); exact solution x = x0 cos(omega t) + v0 / omega sin(omega t). Its energy
// is conserved, which makes it the standard test for methods that gain or lose energy.
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

class HarmonicOscillator final : public Model {
 public:
  HarmonicOscillator();
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  [[nodiscard]] std::unique_ptr<Stepper> fixed_size_stepper(const std::string& method,
                                                            const Context& context) const override;
  void acceleration(double t, const Vector& q, const Context& context, Vector& qdd) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
  [[nodiscard]] bool has_exact_solution() const override { return true; }
  void exact_solution(double t, double t0, const Vector& x0, const Context& context,
                      Vector& x) const override;
};

}  // namespace simverify::simulation::models
