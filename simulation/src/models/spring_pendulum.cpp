#include "models/spring_pendulum.hpp"

#include <cmath>

namespace simverify::simulation::models {
namespace {
constexpr std::size_t kPendulumMass = 0;
constexpr std::size_t kSpringStiffness = 1;
constexpr std::size_t kRestLength = 2;
constexpr std::size_t kPendulumGravity = 3;

struct Pull {
  double ax, ay;
};

// The acceleration of the mass at (x, y): spring force along the radius plus gravity.
Pull pull_at(double x, double y, const Context& context) {
  const double r = std::hypot(x, y);
  const double spring =
      context.p[kSpringStiffness] / context.p[kPendulumMass] * (1.0 - context.p[kRestLength] / r);
  return {-spring * x, -spring * y - context.p[kPendulumGravity]};
}

}  // namespace

namespace {

ModelInfo spring_pendulum_info() {
  ModelInfo info;
  info.name = "spring_pendulum";
  info.takes_input = false;
  info.description = "undamped elastic pendulum: a mass on a spring swinging under gravity";
  info.states = {"x", "y", "vx", "vy"};
  info.outputs = {"x", "y", "vx", "vy", "energy"};
  info.state_units = {"m", "m", "m/s", "m/s"};
  info.output_units = {"m", "m", "m/s", "m/s", "J"};
  // 1 kg on 40 N/m, 1 m rest length: spring mode sqrt(k/m) = 6.3 rad/s against the pendulum
  // mode sqrt(g/L') = 2.8 rad/s (L' = 1.245 m, the static stretch included): the modes
  // exchange energy, a nonlinear, non-periodic motion.
  info.parameters = {{"m", 1.0, "kg", "mass"},
                     {"k", 40.0, "N/m", "spring stiffness"},
                     {"L", 1.0, "m", "rest length of the spring"},
                     {"g", 9.81, "m/s^2", "gravitational acceleration"}};
  // Released at rest 30 degrees off the vertical on the spring stretched to 1.2 m (0.05 m
  // short of its static length 1 + m g / k).
  info.default_x0 = Vector{{0.6, -1.0392304845413265, 0.0, 0.0}};
  info.default_tf = 10.0;
  info.second_order = SecondOrderStructure{.positions = {0, 1}, .velocities = {2, 3}};
  return info;
}

}  // namespace

SpringPendulum::SpringPendulum() : Model(spring_pendulum_info()) {}

void SpringPendulum::acceleration(double /*t*/, const Vector& q, const Context& context,
                                  Vector& qdd) const {
  const Pull a = pull_at(q[0], q[1], context);
  qdd.resize(2);
  qdd << a.ax, a.ay;
}

void SpringPendulum::rhs(double /*t*/, const Vector& x, const Context& context,
                         Vector& dxdt) const {
  const Pull a = pull_at(x[0], x[1], context);
  dxdt.resize(4);
  dxdt << x[2], x[3], a.ax, a.ay;
}

// d(-s q)/dq with s = (k/m)(1 - L/r): -(s I + (k/m) (L / r^3) q q^T); the velocities'
// block is the identity.
void SpringPendulum::jacobian(double /*t*/, const Vector& x, const Context& context,
                              Matrix& dfdx) const {
  const double r = std::hypot(x[0], x[1]);
  const double k_m = context.p[kSpringStiffness] / context.p[kPendulumMass];
  const double s = k_m * (1.0 - context.p[kRestLength] / r);
  const double c = k_m * context.p[kRestLength] / (r * r * r);
  dfdx.setZero(4, 4);
  dfdx(0, 2) = 1.0;
  dfdx(1, 3) = 1.0;
  dfdx(2, 0) = -(s + c * x[0] * x[0]);
  dfdx(2, 1) = -c * x[0] * x[1];
  dfdx(3, 0) = -c * x[0] * x[1];
  dfdx(3, 1) = -(s + c * x[1] * x[1]);
}

void SpringPendulum::output(double /*t*/, const Vector& x, const Context& context,
                            Vector& y) const {
  const double m = context.p[kPendulumMass];
  const double stretch = std::hypot(x[0], x[1]) - context.p[kRestLength];
  const double energy = 0.5 * m * (x[2] * x[2] + x[3] * x[3]) +
                        0.5 * context.p[kSpringStiffness] * stretch * stretch +
                        m * context.p[kPendulumGravity] * x[1];
  y.resize(5);
  y << x[0], x[1], x[2], x[3], energy;
}

}  // namespace simverify::simulation::models
