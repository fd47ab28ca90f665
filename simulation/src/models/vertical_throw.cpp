#include "models/vertical_throw.hpp"

#include "models/fixed_size_rhs.hpp"

#include <cmath>
#include <sstream>
#include <string>

namespace simverify::simulation::models {
namespace {
constexpr std::size_t kGravity = 0;
constexpr std::size_t kDrag = 1;
}  // namespace

namespace {

ModelInfo vertical_throw_info() {
  ModelInfo info;
  info.name = "vertical_throw";
  info.takes_input = false;
  info.description = "y'' = -g - c y': vertical throw with optional linear drag, ground event";
  info.states = {"y", "v"};
  info.outputs = {"y", "v"};
  info.state_units = {"m", "m/s"};
  info.output_units = {"m", "m/s"};
  info.parameters = {{"g", 9.81, "m/s^2", "gravitational acceleration"},
                     {"drag", 0.0, "1/s", "linear drag rate c = b / m (0: no air resistance)"}};
  info.events = {{"ground", EventDirection::falling, true}};
  // The continuous-models slides' worked example (ch. 4.2) drops the body from 100 m at rest; it
  // lands after sqrt(2 * 100 / 9.81) = 4.515 s, inside the default horizon.
  info.default_x0 = Vector{{100.0, 0.0}};
  info.default_tf = 5.0;
  info.second_order = SecondOrderStructure{.positions = {0}, .velocities = {1}};
  return info;
}

}  // namespace

VerticalThrow::VerticalThrow() : Model(vertical_throw_info()) {}

void VerticalThrow::acceleration(double /*t*/, const Vector& /*q*/, const Context& context,
                                 Vector& qdd) const {
  qdd.resize(1);
  qdd[0] = -context.p[kGravity];
}

std::optional<std::string> VerticalThrow::velocity_dependence(std::span<const double> p) const {
  if (p[kDrag] == 0.0) return std::nullopt;
  std::ostringstream why;
  why << "drag = " << p[kDrag] << " makes y'' = -g - drag v depend on v";
  return why.str();
}

namespace {

// f on Vector (rhs) and on std::array (the fixed-size path): one body, the same numbers.
template <class State>
[[gnu::always_inline]] inline void vertical_throw_rhs(const Context& context, const State& x,
                                                      State& dxdt) {
  dxdt[0] = x[1];
  dxdt[1] = -context.p[kGravity] - context.p[kDrag] * x[1];
}

}  // namespace

void VerticalThrow::rhs(double /*t*/, const Vector& x, const Context& context, Vector& dxdt) const {
  dxdt.resize(2);
  vertical_throw_rhs(context, x, dxdt);
}

std::unique_ptr<Stepper> VerticalThrow::fixed_size_stepper(const std::string& method,
                                                           const Context& context) const {
  return fixed_size_stepper_of<2>(
      method, context,
      [](double /*t*/, const auto& x, const Context& c, auto& dxdt)
          SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA { vertical_throw_rhs(c, x, dxdt); });
}

void VerticalThrow::jacobian(double /*t*/, const Vector& /*x*/, const Context& context,
                             Matrix& dfdx) const {
  dfdx.resize(2, 2);
  dfdx << 0.0, 1.0, 0.0, -context.p[kDrag];
}

// v = v0 e^{-c tau} - g (1 - e^{-c tau}) / c,
// y = y0 + v0 (1 - e^{-c tau}) / c - g (c tau - 1 + e^{-c tau}) / c^2,
// which tend to the slides' v0 - g tau and y0 + v0 tau - g tau^2 / 2 as c -> 0. The
// bracket c tau - 1 + e^{-c tau} cancels catastrophically for small c tau, so it is summed
// as a series there (a^2/2 - a^3/6 + ...; 12 terms reach round-off for a < 0.5).
void VerticalThrow::exact_solution(double t, double t0, const Vector& x0, const Context& context,
                                   Vector& x) const {
  const double g = context.p[kGravity];
  const double c = context.p[kDrag];
  const double tau = t - t0;
  const double a = c * tau;
  // phi1 = (1 - e^{-a}) / a and phi2 = (a - 1 + e^{-a}) / a^2, both smooth at a = 0.
  double phi1 = 1.0;
  double phi2 = 0.5;
  if (a != 0.0) {
    phi1 = -std::expm1(-a) / a;
    if (std::abs(a) < 0.5) {
      // phi2 = sum_{k>=0} (-a)^k / (k + 2)!
      double term = 0.5;
      phi2 = term;
      for (int k = 1; k < 12; ++k) {
        term *= -a / (k + 2);
        phi2 += term;
      }
    } else {
      phi2 = (a + std::expm1(-a)) / (a * a);
    }
  }
  x.resize(2);
  x << x0[0] + x0[1] * tau * phi1 - g * tau * tau * phi2, x0[1] * std::exp(-a) - g * tau * phi1;
}

double VerticalThrow::event_value(std::size_t /*index*/, double /*t*/, const Vector& x,
                                  const Context& /*context*/) const {
  return x[0];
}

EventAction VerticalThrow::on_event(std::size_t /*index*/, double /*t*/, Vector& /*x*/,
                                    Context& /*context*/) const {
  return EventAction::terminate;
}

}  // namespace simverify::simulation::models
