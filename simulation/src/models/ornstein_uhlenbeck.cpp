#include "models/ornstein_uhlenbeck.hpp"

#include <cmath>

namespace simverify::simulation::models {

namespace {

ModelInfo ornstein_uhlenbeck_info() {
  ModelInfo info;
  info.name = "ornstein_uhlenbeck";
  info.description =
      "x' = -a x + u: first-order lag; with u = noise the Ornstein-Uhlenbeck process";
  info.states = {"x"};
  info.outputs = {"x"};
  info.state_units = {"1"};
  info.output_units = {"1"};
  info.parameters = {{"a", 1.0, "1/s", "mean-reversion rate (0: pure integrator)"}};
  info.default_x0 = Vector::Zero(1);
  info.default_tf = 10.0;
  info.exact_solution_needs_constant_input = true;
  return info;
}

}  // namespace

OrnsteinUhlenbeck::OrnsteinUhlenbeck() : Model(ornstein_uhlenbeck_info()) {}

void OrnsteinUhlenbeck::rhs(double /*t*/, const Vector& x, const Context& context,
                            Vector& dxdt) const {
  dxdt.resize(1);
  dxdt[0] = -context.p[0] * x[0] + context.u.value;
}

void OrnsteinUhlenbeck::jacobian(double /*t*/, const Vector& /*x*/, const Context& context,
                                 Matrix& dfdx) const {
  dfdx.resize(1, 1);
  dfdx(0, 0) = -context.p[0];
}

void OrnsteinUhlenbeck::exact_solution(double t, double t0, const Vector& x0,
                                       const Context& context, Vector& x) const {
  const double a = context.p[0];
  const double u = context.u.value;
  const double tau = t - t0;
  x.resize(1);
  // x = x0 e^{-a tau} + u (1 - e^{-a tau}) / a; expm1 keeps it exact as a -> 0 (x0 + u tau).
  const double decay = std::exp(-a * tau);
  const double gain = a != 0.0 ? -std::expm1(-a * tau) / a : tau;
  x[0] = x0[0] * decay + u * gain;
}

}  // namespace simverify::simulation::models
