#pragma once
// Bouncing ball, states (y, v) with height y above the ground, in two variants:
//  "event" (default): free flight y'' = -g; event "ground" at y = 0 falling resets
//    v := -e v (restitution e). Bounce times form a geometric series with a finite limit
//    (Zeno behaviour) that the simulator's Zeno guard must catch. Exact solution: the
//    parabolas between bounces in closed form, at rest after the Zeno time.
//  "contact": no events; while penetrating (y < 0) a stiff Kelvin-Voigt contact force
//    -k y - c v acts (a "stiff bounce"), so the rhs is continuous in y and the
//    problem is stiff during contact.
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

class BouncingBall final : public Model {
 public:
  explicit BouncingBall(bool contact);
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
  [[nodiscard]] bool has_exact_solution() const override { return !contact_; }
  void exact_solution(double t, double t0, const Vector& x0, const Context& context,
                      Vector& x) const override;
  double event_value(std::size_t index, double t, const Vector& x,
                     const Context& context) const override;
  EventAction on_event(std::size_t index, double t, Vector& x, Context& context) const override;

 private:
  bool contact_;
};

}  // namespace simverify::simulation::models
