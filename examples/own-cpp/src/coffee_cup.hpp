#pragma once
// Newton's law of cooling for a cup of coffee: T' = -k (T - T_room), with the closed form
// T(t) = T_room + (T(t0) - T_room) e^(-k (t - t0)), so simverify's `simulate` can measure
// how far a solver strays from it (error_end).
#include <simverify/simulation/model.hpp>

namespace coffee {

class CoffeeCup final : public simverify::simulation::Model {
 public:
  CoffeeCup();

  void rhs(double t, const simverify::simulation::Vector& x,
           const simverify::simulation::Context& context,
           simverify::simulation::Vector& dxdt) const override;
  [[nodiscard]] bool has_exact_solution() const override { return true; }
  void exact_solution(double t, double t0, const simverify::simulation::Vector& x0,
                      const simverify::simulation::Context& context,
                      simverify::simulation::Vector& x) const override;
};

}  // namespace coffee
