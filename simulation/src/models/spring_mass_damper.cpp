#include "models/spring_mass_damper.hpp"

#include "models/fixed_size_rhs.hpp"

#include "models/damped_oscillator.hpp"

#include <unsupported/Eigen/MatrixFunctions>

#include <sstream>
#include <string>

namespace simverify::simulation::models {
namespace {
constexpr std::size_t kMass = 0;
constexpr std::size_t kDamping = 1;
constexpr std::size_t kStiffness = 2;
}  // namespace

namespace {

ModelInfo spring_mass_damper_info() {
  ModelInfo info;
  info.name = "spring_mass_damper";
  info.description = "m y'' + d y' + k y = F(t), F = u: driven damped spring-mass system";
  info.states = {"y", "v"};
  info.outputs = {"y", "v", "acceleration", "spring_force"};
  info.state_units = {"m", "m/s"};
  info.output_units = {"m", "m/s", "m/s^2", "N"};
  // 1 kg on 100 N/m: omega0 = 10 rad/s (1.6 Hz); d = 2 Ns/m gives damping ratio
  // d / (2 sqrt(k m)) = 0.1, a lightly damped oscillation that decays over the 5 s default.
  info.parameters = {{"m", 1.0, "kg", "mass"},
                     {"d", 2.0, "N s/m", "viscous damping coefficient"},
                     {"k", 100.0, "N/m", "spring stiffness"}};
  info.default_x0 = Vector{{0.1, 0.0}};
  info.default_tf = 5.0;
  info.exact_solution_needs_constant_input = true;
  info.second_order = SecondOrderStructure{.positions = {0}, .velocities = {1}};
  return info;
}

}  // namespace

SpringMassDamper::SpringMassDamper() : Model(spring_mass_damper_info()) {}

void SpringMassDamper::acceleration(double /*t*/, const Vector& q, const Context& context,
                                    Vector& qdd) const {
  qdd.resize(1);
  qdd[0] = (context.u.value - context.p[kStiffness] * q[0]) / context.p[kMass];
}

std::optional<std::string> SpringMassDamper::velocity_dependence(std::span<const double> p) const {
  if (p[kDamping] == 0.0) return std::nullopt;
  std::ostringstream why;
  why << "d = " << p[kDamping] << " makes y'' = (F - d v - k y) / m depend on v";
  return why.str();
}

namespace {

// f on Vector (rhs) and on std::array (the fixed-size path): one body, the same numbers.
template <class State>
[[gnu::always_inline]] inline void spring_mass_damper_rhs(const Context& context, const State& x,
                                                          State& dxdt) {
  const double m = context.p[kMass];
  const double d = context.p[kDamping];
  const double k = context.p[kStiffness];
  dxdt[0] = x[1];
  dxdt[1] = (context.u.value - d * x[1] - k * x[0]) / m;
}

}  // namespace

void SpringMassDamper::rhs(double /*t*/, const Vector& x, const Context& context,
                           Vector& dxdt) const {
  dxdt.resize(2);
  spring_mass_damper_rhs(context, x, dxdt);
}

std::unique_ptr<Stepper> SpringMassDamper::fixed_size_stepper(const std::string& method,
                                                              const Context& context) const {
  return fixed_size_stepper_of<2>(
      method, context,
      [](double /*t*/, const auto& x, const Context& c, auto& dxdt)
          SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA { spring_mass_damper_rhs(c, x, dxdt); });
}

void SpringMassDamper::output(double t, const Vector& x, const Context& context, Vector& y) const {
  Vector dxdt;
  rhs(t, x, context, dxdt);
  y.resize(4);
  // Spring force on the mass, -k y (restoring), as in the continuous-models slides' F_Feder = -k y.
  y << x[0], x[1], dxdt[1], -context.p[kStiffness] * x[0];
}

void SpringMassDamper::jacobian(double /*t*/, const Vector& /*x*/, const Context& context,
                                Matrix& dfdx) const {
  const double m = context.p[kMass];
  dfdx.resize(2, 2);
  dfdx << 0.0, 1.0, -context.p[kStiffness] / m, -context.p[kDamping] / m;
}

void SpringMassDamper::exact_solution(double t, double t0, const Vector& x0, const Context& context,
                                      Vector& x) const {
  const double m = context.p[kMass];
  const double d = context.p[kDamping];
  const double k = context.p[kStiffness];
  const double force = context.u.value;
  x.resize(2);
  if (k != 0.0) {
    // y = F / k + z with z'' + (d / m) z' + (k / m) z = 0.
    const double rest = force / k;
    const auto s = detail::damped_oscillator(t - t0, x0[0] - rest, x0[1], 0.5 * d / m, k / m);
    x << rest + s.z, s.dz;
    return;
  }
  // Without a spring there is no static deflection to shift by; the affine system
  // x' = A x + b is solved exactly by exp([[A, b], [0, 0]] tau) applied to (x0, 1).
  Eigen::Matrix3d augmented = Eigen::Matrix3d::Zero();
  augmented(0, 1) = 1.0;
  augmented(1, 1) = -d / m;
  augmented(1, 2) = force / m;
  const Eigen::Matrix3d propagator = (augmented * (t - t0)).exp();
  const Eigen::Vector3d start{x0[0], x0[1], 1.0};
  const Eigen::Vector3d end = propagator * start;
  x << end[0], end[1];
}

}  // namespace simverify::simulation::models
