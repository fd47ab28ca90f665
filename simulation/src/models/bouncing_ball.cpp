#include "models/bouncing_ball.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace simverify::simulation::models {
namespace {
constexpr std::size_t kBallGravity = 0;
constexpr std::size_t kRestitution = 1;  // event variant
constexpr std::size_t kBallMass = 1;     // contact variant
constexpr std::size_t kBallStiffness = 2;
constexpr std::size_t kContactDamping = 3;
}  // namespace

namespace {

ModelInfo bouncing_ball_info(bool contact) {
  ModelInfo info;
  info.name = "bouncing_ball";
  info.takes_input = false;
  info.variant = contact ? "contact" : "event";
  info.states = {"y", "v"};
  info.outputs = {"y", "v"};
  info.state_units = {"m", "m/s"};
  info.output_units = {"m", "m/s"};
  // Dropped from 1 m: first impact after sqrt(2 / 9.81) = 0.452 s; with e = 0.8 the bounces
  // accumulate at 0.452 (1 + 2 e / (1 - e)) = 4.07 s, beyond the default 3 s horizon.
  info.default_x0 = Vector{{1.0, 0.0}};
  info.default_tf = 3.0;
  if (contact) {
    info.description =
        "bouncing ball with a stiff spring-damper contact (no events): y'' = -g + F/m, "
        "F = -k y - c v while y < 0";
    // A 100 g rubber ball on a 1e5 N/m contact: contact frequency sqrt(k/m) = 1000 rad/s,
    // about 3 ms per impact. c = 2 zeta sqrt(k m) with zeta = -ln e / sqrt(pi^2 + ln^2 e)
    // gives a restitution of e = 0.8 for the linear contact (zeta = 0.0709, c = 14.17).
    info.parameters = {{"g", 9.81, "m/s^2", "gravitational acceleration"},
                       {"m", 0.1, "kg", "ball mass"},
                       {"k", 1.0e5, "N/m", "contact stiffness"},
                       {"c", 14.17, "N s/m", "contact damping (e = 0.8)"}};
  } else {
    info.description = "bouncing ball with restitution events: y'' = -g, v := -e v at y = 0";
    info.parameters = {{"g", 9.81, "m/s^2", "gravitational acceleration"},
                       {"e", 0.8, "1", "coefficient of restitution"}};
    info.events = {{"ground", EventDirection::falling, false}};
    info.exact_solution_follows_events = true;
  }
  return info;
}

}  // namespace

BouncingBall::BouncingBall(bool contact) : Model(bouncing_ball_info(contact)), contact_(contact) {}

void BouncingBall::rhs(double /*t*/, const Vector& x, const Context& context, Vector& dxdt) const {
  double acceleration = -context.p[kBallGravity];
  if (contact_ && x[0] < 0.0) {
    acceleration += (-context.p[kBallStiffness] * x[0] - context.p[kContactDamping] * x[1]) /
                    context.p[kBallMass];
  }
  dxdt.resize(2);
  dxdt << x[1], acceleration;
}

void BouncingBall::jacobian(double /*t*/, const Vector& x, const Context& context,
                            Matrix& dfdx) const {
  dfdx.resize(2, 2);
  dfdx << 0.0, 1.0, 0.0, 0.0;
  if (contact_ && x[0] < 0.0) {
    dfdx(1, 0) = -context.p[kBallStiffness] / context.p[kBallMass];
    dfdx(1, 1) = -context.p[kContactDamping] / context.p[kBallMass];
  }
}

// Flight from (y, v) reaches the ground after tau = (v + sqrt(v^2 + 2 g y)) / g with speed
// w = sqrt(v^2 + 2 g y); the bounce leaves with e w. Later flights last 2 e^n w / g, so all
// remaining bounces fit into 2 e w / (g (1 - e)); once that is below round-off of t the
// ball is at rest on the ground (the Zeno limit).
void BouncingBall::exact_solution(double t, double t0, const Vector& x0, const Context& context,
                                  Vector& x) const {
  if (contact_) {
    throw std::logic_error("bouncing_ball: the contact variant has no exact solution");
  }
  if (t < t0) throw std::invalid_argument("bouncing_ball: exact solution needs t >= t0");
  const double g = context.p[kBallGravity];
  const double e = context.p[kRestitution];
  double now = t0;
  double y = x0[0];
  double v = x0[1];
  const double resolution = 4.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, t);
  while (true) {
    const double discriminant = v * v + 2.0 * g * y;
    if (discriminant < 0.0 || g <= 0.0) break;  // never reaches the ground from here
    const double speed = std::sqrt(discriminant);
    const double flight = (v + speed) / g;
    if (now + flight > t) break;
    now += flight;
    y = 0.0;
    v = e * speed;
    if (e < 1.0 && 2.0 * v / (g * (1.0 - e)) <= resolution) {
      v = 0.0;
      now = t;
      break;
    }
  }
  const double tau = t - now;
  x.resize(2);
  x << y + v * tau - 0.5 * g * tau * tau, v - g * tau;
}

double BouncingBall::event_value(std::size_t /*index*/, double /*t*/, const Vector& x,
                                 const Context& /*context*/) const {
  return x[0];
}

EventAction BouncingBall::on_event(std::size_t /*index*/, double /*t*/, Vector& x,
                                   Context& context) const {
  x[1] = -context.p[kRestitution] * x[1];
  return EventAction::resume;
}

}  // namespace simverify::simulation::models
