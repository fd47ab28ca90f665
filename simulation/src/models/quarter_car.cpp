#include "models/quarter_car.hpp"

#include "models/fixed_size_rhs.hpp"

#include <Eigen/Core>
#include <unsupported/Eigen/MatrixFunctions>

namespace simverify::simulation::models {
namespace {
constexpr std::size_t kM1 = 0;
constexpr std::size_t kM2 = 1;
constexpr std::size_t kS1 = 2;
constexpr std::size_t kD1 = 3;
constexpr std::size_t kS2 = 4;
constexpr std::size_t kD2 = 5;

// A of x' = A x + B (u, u'), rows in the state order (y1, y1', y2, y2').
Eigen::Matrix4d system_matrix(const Context& context) {
  const auto& p = context.p;
  const double m1 = p[kM1];
  const double m2 = p[kM2];
  Eigen::Matrix4d a = Eigen::Matrix4d::Zero();
  a(0, 1) = 1.0;
  a(1, 0) = -p[kS1] / m1;
  a(1, 1) = -p[kD1] / m1;
  a(1, 2) = p[kS1] / m1;
  a(1, 3) = p[kD1] / m1;
  a(2, 3) = 1.0;
  a(3, 0) = p[kS1] / m2;
  a(3, 1) = p[kD1] / m2;
  a(3, 2) = -(p[kS1] + p[kS2]) / m2;
  a(3, 3) = -(p[kD1] + p[kD2]) / m2;
  return a;
}
}  // namespace

namespace {

ModelInfo quarter_car_info() {
  ModelInfo info;
  info.name = "quarter_car";
  info.description =
      "quarter-car test bench (Sec 2.4): chassis m1 on suspension s1, d1 over wheel m2 on "
      "tyre s2, d2, driven by the road height u";
  info.states = {"y1", "v1", "y2", "v2"};
  info.outputs = {"chassis_acceleration", "suspension_travel", "tyre_deflection",
                  "dynamic_tyre_load"};
  info.state_units = {"m", "m/s", "m", "m/s"};
  info.output_units = {"m/s^2", "m", "m", "N"};
  // A mid-size passenger car's quarter (Mitschke & Wallentowitz, Dynamik der
  // Kraftfahrzeuge; Gillespie, Fundamentals of Vehicle Dynamics, ch. 5): body natural
  // frequency sqrt(s1 s2 / (s1 + s2) / m1) / 2 pi = 1.24 Hz (typical 1-1.5 Hz), wheel hop
  // sqrt((s1 + s2) / m2) / 2 pi = 11.8 Hz (typical 10-15 Hz), body damping ratio
  // d1 / (2 sqrt(s1 m1)) = 0.31 (typical 0.2-0.4); tyre damping is small.
  info.parameters = {{"m1", 300.0, "kg", "chassis (sprung) mass of one quarter"},
                     {"m2", 40.0, "kg", "wheel and axle (unsprung) mass"},
                     {"s1", 2.0e4, "N/m", "suspension spring stiffness"},
                     {"d1", 1.5e3, "N s/m", "suspension damper coefficient"},
                     {"s2", 2.0e5, "N/m", "tyre vertical stiffness"},
                     {"d2", 50.0, "N s/m", "tyre damping coefficient"}};
  // Drop test: the chassis released 5 cm above equilibrium on a flat road (u = 0).
  info.default_x0 = Vector{{0.05, 0.0, 0.0, 0.0}};
  info.default_tf = 3.0;
  info.exact_solution_needs_constant_input = true;
  return info;
}

}  // namespace

QuarterCar::QuarterCar() : Model(quarter_car_info()) {}

namespace {

// f on Vector (rhs) and on std::array (the fixed-size path): one body, the same numbers.
template <class State>
[[gnu::always_inline]] inline void quarter_car_rhs(const Context& context, const State& x,
                                                   State& dxdt) {
  const auto& p = context.p;
  const double suspension = p[kD1] * (x[1] - x[3]) + p[kS1] * (x[0] - x[2]);
  const double tyre = p[kD2] * (x[3] - context.u.derivative) + p[kS2] * (x[2] - context.u.value);
  dxdt[0] = x[1];
  dxdt[1] = -suspension / p[kM1];
  dxdt[2] = x[3];
  dxdt[3] = (suspension - tyre) / p[kM2];
}

}  // namespace

void QuarterCar::rhs(double /*t*/, const Vector& x, const Context& context, Vector& dxdt) const {
  dxdt.resize(4);
  quarter_car_rhs(context, x, dxdt);
}

std::unique_ptr<Stepper> QuarterCar::fixed_size_stepper(const std::string& method,
                                                        const Context& context) const {
  return fixed_size_stepper_of<4>(
      method, context,
      [](double /*t*/, const auto& x, const Context& c, auto& dxdt)
          SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA { quarter_car_rhs(c, x, dxdt); });
}

void QuarterCar::output(double /*t*/, const Vector& x, const Context& context, Vector& y) const {
  const auto& p = context.p;
  const double suspension = p[kD1] * (x[1] - x[3]) + p[kS1] * (x[0] - x[2]);
  y.resize(4);
  // dynamic_tyre_load is the force the road exerts on the wheel beyond the static load,
  // s2 (u - y2) + d2 (u' - y2'): positive when the tyre is compressed more than at rest;
  // the wheel lifts off when it falls below -(m1 + m2) g.
  y << -suspension / p[kM1], x[0] - x[2], x[2] - context.u.value,
      p[kS2] * (context.u.value - x[2]) + p[kD2] * (context.u.derivative - x[3]);
}

void QuarterCar::jacobian(double /*t*/, const Vector& /*x*/, const Context& context,
                          Matrix& dfdx) const {
  dfdx = system_matrix(context);
}

void QuarterCar::exact_solution(double t, double t0, const Vector& x0, const Context& context,
                                Vector& x) const {
  // With u constant (u' = 0), x' = A x + b, b = (0, 0, 0, s2 u / m2); the augmented state
  // (x, 1) obeys the linear system [[A, b], [0, 0]], solved by its matrix exponential.
  Eigen::Matrix<double, 5, 5> augmented = Eigen::Matrix<double, 5, 5>::Zero();
  augmented.topLeftCorner<4, 4>() = system_matrix(context);
  augmented(3, 4) = context.p[kS2] * context.u.value / context.p[kM2];
  const Eigen::Matrix<double, 5, 5> propagator = (augmented * (t - t0)).exp();
  Eigen::Matrix<double, 5, 1> start;
  start << x0[0], x0[1], x0[2], x0[3], 1.0;
  x = (propagator * start).head<4>();
}

}  // namespace simverify::simulation::models
