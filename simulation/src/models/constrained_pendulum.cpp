#include <simverify/simulation/models/constrained_pendulum.hpp>

#include "models/damped_oscillator.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace simverify::simulation::models {
namespace {

double active_length(const Context& context) {
  const double l = context.p[ConstrainedPendulum::kLength];
  return context.mode == kPendulumShort ? l - context.p[ConstrainedPendulum::kPinDistance] : l;
}

// True once the solution has left the side of the pin that `mode` belongs to.
bool left_side(int mode, double phi, double pin) {
  return mode == kPendulumLong ? phi < pin : phi > pin;
}

}  // namespace

PendulumState linear_pendulum_solution(double tau, double phi0, double v0, double length,
                                       double damping_rate, double g) {
  const auto s = detail::damped_oscillator(tau, phi0, v0 / length, 0.5 * damping_rate, g / length);
  return {s.z, length * s.dz};
}

namespace {

ModelInfo constrained_pendulum_info(bool linear) {
  ModelInfo info;
  info.name = "constrained_pendulum";
  info.takes_input = false;
  info.variant = linear ? "linear" : "nonlinear";
  info.description =
      "ARGESIM C7 constrained pendulum: the string wraps around a pin at phi_pin, shortening "
      "the pendulum (state events hit/release)";
  info.states = {"phi", "v"};
  info.outputs = {"phi", "v", "dphi", "length"};
  info.state_units = {"rad", "m/s"};
  info.output_units = {"rad", "m/s", "rad/s", "m"};
  // ARGESIM C7 task values.
  info.parameters = {{"m", 1.02, "kg", "pendulum mass"},
                     {"l", 1.0, "m", "full string length"},
                     {"l_p", 0.7, "m", "pin distance from the pivot (short length l - l_p)"},
                     {"d", 0.2, "kg/s", "damping coefficient (v' gets -(d/m) v)"},
                     {"g", 9.81, "m/s^2", "gravitational acceleration"},
                     {"phi_pin", -std::numbers::pi / 12.0, "rad", "angle of the pin"}};
  info.events = {{"hit", EventDirection::falling, false},
                 {"release", EventDirection::rising, false}};
  info.default_x0 = Vector{{std::numbers::pi / 6.0, 0.0}};
  info.default_tf = 10.0;
  info.exact_solution_follows_events = linear;
  return info;
}

}  // namespace

ConstrainedPendulum::ConstrainedPendulum(bool linear)
    : Model(constrained_pendulum_info(linear)), linear_(linear) {}

void ConstrainedPendulum::rhs(double /*t*/, const Vector& x, const Context& context,
                              Vector& dxdt) const {
  const double restoring = linear_ ? x[0] : std::sin(x[0]);
  dxdt.resize(2);
  dxdt << x[1] / active_length(context),
      -context.p[kGravity] * restoring - context.p[kDamping] / context.p[kMass] * x[1];
}

void ConstrainedPendulum::output(double /*t*/, const Vector& x, const Context& context,
                                 Vector& y) const {
  const double length = active_length(context);
  y.resize(4);
  y << x[0], x[1], x[1] / length, length;
}

void ConstrainedPendulum::jacobian(double /*t*/, const Vector& x, const Context& context,
                                   Matrix& dfdx) const {
  const double slope = linear_ ? 1.0 : std::cos(x[0]);
  dfdx.resize(2, 2);
  dfdx << 0.0, 1.0 / active_length(context), -context.p[kGravity] * slope,
      -context.p[kDamping] / context.p[kMass];
}

void ConstrainedPendulum::exact_solution(double t, double t0, const Vector& x0,
                                         const Context& context, Vector& x) const {
  if (!linear_) {
    throw std::logic_error("constrained_pendulum: only the linear variant has an exact solution");
  }
  if (t < t0) throw std::invalid_argument("constrained_pendulum: exact solution needs t >= t0");
  const double l = context.p[kLength];
  const double lengths[2] = {l, l - context.p[kPinDistance]};
  const double rate = context.p[kDamping] / context.p[kMass];
  const double g = context.p[kGravity];
  const double pin = context.p[kPinAngle];

  int mode = initial_mode(t0, x0, context);
  double now = t0;
  PendulumState state{x0[0], x0[1]};
  // Scan each mode's closed form in steps of 1/64 of its undamped period for the first
  // sample past the pin, then bisect to round-off. An excursion past the pin shorter than
  // the scan step would be missed; at C7's amplitudes excursions last a large part of a
  // period.
  while (now < t) {
    const double length = lengths[mode];
    const double scan = 2.0 * std::numbers::pi / std::sqrt(g / length) / 64.0;
    const auto at = [&](double tau) {
      return linear_pendulum_solution(tau, state.phi, state.v, length, rate, g);
    };
    const double remaining = t - now;
    double lo = 0.0;
    double hi = -1.0;  // first scan point past the pin, if any
    for (double tau = scan;; tau += scan) {
      const double probe = std::min(tau, remaining);
      if (left_side(mode, at(probe).phi, pin)) {
        hi = probe;
        break;
      }
      lo = probe;
      if (probe >= remaining) break;
    }
    if (hi < 0.0) {
      state = at(remaining);
      break;
    }
    for (int i = 0; i < 200 && hi - lo > 0.0; ++i) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      (left_side(mode, at(mid).phi, pin) ? hi : lo) = mid;
    }
    // The event: v is continuous, the length switches (C7); restart on the pin.
    state = at(hi);
    state.phi = pin;
    now += hi;
    mode = mode == kPendulumLong ? kPendulumShort : kPendulumLong;
  }
  x.resize(2);
  x << state.phi, state.v;
}

double ConstrainedPendulum::event_value(std::size_t /*index*/, double /*t*/, const Vector& x,
                                        const Context& context) const {
  return x[0] - context.p[kPinAngle];
}

EventAction ConstrainedPendulum::on_event(std::size_t index, double /*t*/, Vector& /*x*/,
                                          Context& context) const {
  // v is left untouched: the string's tangential velocity is continuous at the pin.
  context.mode = index == kHit ? kPendulumShort : kPendulumLong;
  return EventAction::resume;
}

int ConstrainedPendulum::initial_mode(double /*t0*/, const Vector& x0,
                                      const Context& context) const {
  const double pin = context.p[kPinAngle];
  if (x0[0] > pin) return kPendulumLong;
  if (x0[0] < pin) return kPendulumShort;
  return x0[1] < 0.0 ? kPendulumShort : kPendulumLong;
}

}  // namespace simverify::simulation::models
