#include "models/harmonic_oscillator.hpp"

#include "models/fixed_size_rhs.hpp"

#include "models/damped_oscillator.hpp"

#include <numbers>

namespace simverify::simulation::models {

namespace {

ModelInfo harmonic_oscillator_info() {
  ModelInfo info;
  info.name = "harmonic_oscillator";
  info.takes_input = false;
  info.description = "x'' = -omega^2 x: undamped spring-mass oscillator with exact solution";
  info.states = {"x", "v"};
  info.outputs = {"x", "v"};
  info.state_units = {"m", "m/s"};
  info.output_units = {"m", "m/s"};
  info.parameters = {{"omega", 2.0 * std::numbers::pi, "rad/s", "angular frequency"}};
  info.default_x0 = Vector{{1.0, 0.0}};
  info.default_tf = 10.0;  // ten periods of the 1 Hz default
  info.second_order = SecondOrderStructure{.positions = {0}, .velocities = {1}};
  return info;
}

}  // namespace

HarmonicOscillator::HarmonicOscillator() : Model(harmonic_oscillator_info()) {}

void HarmonicOscillator::acceleration(double /*t*/, const Vector& q, const Context& context,
                                      Vector& qdd) const {
  const double omega = context.p[0];
  qdd.resize(1);
  qdd[0] = -omega * omega * q[0];
}

namespace {

// f on Vector (rhs) and on std::array (the fixed-size path): one body, the same numbers.
template <class State>
[[gnu::always_inline]] inline void harmonic_oscillator_rhs(const Context& context, const State& x,
                                                           State& dxdt) {
  const double omega = context.p[0];
  dxdt[0] = x[1];
  dxdt[1] = -omega * omega * x[0];
}

}  // namespace

void HarmonicOscillator::rhs(double /*t*/, const Vector& x, const Context& context,
                             Vector& dxdt) const {
  dxdt.resize(2);
  harmonic_oscillator_rhs(context, x, dxdt);
}

std::unique_ptr<Stepper> HarmonicOscillator::fixed_size_stepper(const std::string& method,
                                                                const Context& context) const {
  return fixed_size_stepper_of<2>(
      method, context,
      [](double /*t*/, const auto& x, const Context& c, auto& dxdt)
          SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA { harmonic_oscillator_rhs(c, x, dxdt); });
}

void HarmonicOscillator::jacobian(double /*t*/, const Vector& /*x*/, const Context& context,
                                  Matrix& dfdx) const {
  const double omega = context.p[0];
  dfdx.resize(2, 2);
  dfdx << 0.0, 1.0, -omega * omega, 0.0;
}

void HarmonicOscillator::exact_solution(double t, double t0, const Vector& x0,
                                        const Context& context, Vector& x) const {
  const double omega = context.p[0];
  const auto s = detail::damped_oscillator(t - t0, x0[0], x0[1], 0.0, omega * omega);
  x.resize(2);
  x << s.z, s.dz;
}

}  // namespace simverify::simulation::models
