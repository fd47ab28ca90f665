#include <simverify/simulation/models/arenstorf.hpp>

#include "models/fixed_size_rhs.hpp"

#include <cmath>

namespace simverify::simulation::models {

namespace {

ModelInfo arenstorf_info() {
  ModelInfo info;
  info.name = "arenstorf";
  info.takes_input = false;
  info.description = "Arenstorf orbit of the restricted three-body problem (periodic)";
  info.states = {"x", "y", "vx", "vy"};
  info.outputs = {"x", "y", "vx", "vy"};
  info.state_units = {"1", "1", "1", "1"};
  info.output_units = {"1", "1", "1", "1"};
  info.time_unit = std::string{"1"};  // dimensionless time (a literal trips GCC 12 -Wrestrict)
  info.parameters = {{"mu", kArenstorfMu, "1", "moon mass / (earth + moon mass)"}};
  info.default_x0 = Vector{{0.994, 0.0, 0.0, kArenstorfVy0}};
  info.default_tf = kArenstorfPeriod;
  return info;
}

}  // namespace

Arenstorf::Arenstorf() : Model(arenstorf_info()) {}

namespace {

// f on any state type with operator[] (Vector on the generic path, std::array on the
// fixed-size one): the same arithmetic, so both paths give the same results bitwise.
// r^3 as r^2 sqrt(r^2), as the Jacobian below: std::hypot guards against overflow the orbit
// (|x| ~ 1) never comes near, and cost 40% of a whole run at rtol 1e-10.
template <class State>
[[gnu::always_inline]] inline void arenstorf_rhs(double mu, const State& x, State& dxdt) {
  const double mu_earth = 1.0 - mu;
  const double a1 = x[0] + mu;
  const double a2 = x[0] - mu_earth;
  const double r1sq = a1 * a1 + x[1] * x[1];
  const double r2sq = a2 * a2 + x[1] * x[1];
  const double d1 = r1sq * std::sqrt(r1sq);
  const double d2 = r2sq * std::sqrt(r2sq);
  dxdt[0] = x[2];
  dxdt[1] = x[3];
  dxdt[2] = x[0] + 2.0 * x[3] - mu_earth * a1 / d1 - mu * a2 / d2;
  dxdt[3] = x[1] - 2.0 * x[2] - mu_earth * x[1] / d1 - mu * x[1] / d2;
}

}  // namespace

void Arenstorf::rhs(double /*t*/, const Vector& x, const Context& context, Vector& dxdt) const {
  dxdt.resize(4);
  arenstorf_rhs(context.p[0], x, dxdt);
}

std::unique_ptr<Stepper> Arenstorf::fixed_size_stepper(const std::string& method,
                                                       const Context& context) const {
  return fixed_size_stepper_of<4>(
      method, context,
      [](double /*t*/, const auto& x, const Context& c, auto& dxdt)
          SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA { arenstorf_rhs(c.p[0], x, dxdt); });
}

// The force part is the gradient of mu'/r1 + mu/r2; its Hessian terms are
// d/dq_i (q_j / r^3) = delta_ij / r^3 - 3 q_i q_j / r^5 (q relative to each primary).
void Arenstorf::jacobian(double /*t*/, const Vector& x, const Context& context,
                         Matrix& dfdx) const {
  const double mu = context.p[0];
  const double mu_earth = 1.0 - mu;
  const double a1 = x[0] + mu;
  const double a2 = x[0] - mu_earth;
  const double y = x[1];
  const double r1sq = a1 * a1 + y * y;
  const double r2sq = a2 * a2 + y * y;
  const double inv_r1_3 = 1.0 / (r1sq * std::sqrt(r1sq));
  const double inv_r2_3 = 1.0 / (r2sq * std::sqrt(r2sq));
  const double inv_r1_5 = inv_r1_3 / r1sq;
  const double inv_r2_5 = inv_r2_3 / r2sq;
  const double dxx = 1.0 - mu_earth * (inv_r1_3 - 3.0 * a1 * a1 * inv_r1_5) -
                     mu * (inv_r2_3 - 3.0 * a2 * a2 * inv_r2_5);
  const double dxy = 3.0 * (mu_earth * a1 * y * inv_r1_5 + mu * a2 * y * inv_r2_5);
  const double dyy = 1.0 - mu_earth * (inv_r1_3 - 3.0 * y * y * inv_r1_5) -
                     mu * (inv_r2_3 - 3.0 * y * y * inv_r2_5);
  dfdx.resize(4, 4);
  dfdx << 0.0, 0.0, 1.0, 0.0,  //
      0.0, 0.0, 0.0, 1.0,      //
      dxx, dxy, 0.0, 2.0,      //
      dxy, dyy, -2.0, 0.0;
}

}  // namespace simverify::simulation::models
