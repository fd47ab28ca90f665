#include "models/exponential.hpp"

#include <cmath>

namespace simverify::simulation::models {

namespace {

ModelInfo exponential_info() {
  ModelInfo info;
  info.name = "exponential";
  info.takes_input = false;
  info.description = "x' = lambda x: the test equation with exact solution x0 exp(lambda t)";
  info.states = {"x"};
  info.outputs = {"x"};
  info.state_units = {"1"};
  info.output_units = {"1"};
  info.parameters = {{"lambda", -1.0, "1/s", "growth rate (negative: decay)"}};
  info.default_x0 = Vector::Ones(1);
  info.default_tf = 1.0;
  return info;
}

}  // namespace

Exponential::Exponential() : Model(exponential_info()) {}

void Exponential::rhs(double /*t*/, const Vector& x, const Context& context, Vector& dxdt) const {
  dxdt = context.p[0] * x;
}

void Exponential::jacobian(double /*t*/, const Vector& x, const Context& context,
                           Matrix& dfdx) const {
  dfdx = context.p[0] * Matrix::Identity(x.size(), x.size());
}

void Exponential::exact_solution(double t, double t0, const Vector& x0, const Context& context,
                                 Vector& x) const {
  x = x0 * std::exp(context.p[0] * (t - t0));
}

}  // namespace simverify::simulation::models
