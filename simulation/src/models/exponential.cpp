#include "models/exponential.hpp"

#include <cmath>

namespace simverify::simulation::models {

Exponential::Exponential() {
  info_.name = "exponential";
  info_.description = "x' = lambda x: the test equation with exact solution x0 exp(lambda t)";
  info_.states = {"x"};
  info_.outputs = {"x"};
  info_.parameters = {{"lambda", -1.0, "1/s", "growth rate (negative: decay)"}};
  info_.default_x0 = Vector::Ones(1);
  info_.default_tf = 1.0;
}

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
