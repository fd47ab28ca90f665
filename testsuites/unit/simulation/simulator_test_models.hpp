#pragma once
// Small models for the simulator tests, each with an answer known in closed form.
#include <simverify/simulation/model.hpp>

#include <cmath>

namespace simverify::simulation::testing {

// x' = a + u (a clock when a = 1, an integrator of u when a = 0), with one event
// g = (x - c)^2 - r^2 (crossings at x = c - r falling and x = c + r rising) and a
// parameter-change action p[a] := p[a] * factor.
class ClockModel final : public Model {
 public:
  explicit ClockModel(EventDirection direction = EventDirection::either, bool terminal = false,
                      double factor = 1.0)
      : factor_(factor) {
    info_.name = "clock";
    info_.states = {"x"};
    info_.outputs = {"x", "twice_x"};
    info_.parameters = {
        {"a", 1.0, "1", "rate"}, {"c", 0.5, "1", "centre"}, {"r", 0.2, "1", "radius"}};
    info_.events = {{"band", direction, terminal}};
    info_.default_x0 = Vector::Zero(1);
  }
  [[nodiscard]] const ModelInfo& info() const override { return info_; }
  void rhs(double /*t*/, const Vector& /*x*/, const Context& c, Vector& dxdt) const override {
    dxdt.resize(1);
    dxdt[0] = c.p[0] + c.u.value;
  }
  void output(double /*t*/, const Vector& x, const Context& /*c*/, Vector& y) const override {
    y.resize(2);
    y << x[0], 2.0 * x[0];
  }
  double event_value(std::size_t /*index*/, double /*t*/, const Vector& x,
                     const Context& c) const override {
    const double d = x[0] - c.p[1];
    return d * d - c.p[2] * c.p[2];
  }
  EventAction on_event(std::size_t /*index*/, double /*t*/, Vector& /*x*/,
                       Context& c) const override {
    c.p_mutable[0] *= factor_;
    ++c.mode;
    return EventAction::resume;
  }

 private:
  ModelInfo info_;
  double factor_;
};

}  // namespace simverify::simulation::testing
