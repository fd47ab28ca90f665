#include "models/van_der_pol.hpp"

#include "models/fixed_size_rhs.hpp"

namespace simverify::simulation::models {

namespace {

ModelInfo van_der_pol_info() {
  ModelInfo info;
  info.name = "van_der_pol";
  info.takes_input = false;
  info.description = "x'' = mu (1 - x^2) x' - x: relaxation oscillator, stiff for large mu";
  info.states = {"x", "v"};
  info.outputs = {"x", "v"};
  info.state_units = {"1", "1"};
  info.output_units = {"1", "1"};
  info.time_unit = std::string{"1"};  // dimensionless time (a literal trips GCC 12 -Wrestrict)
  info.parameters = {{"mu", 1.0, "1", "nonlinear damping strength"}};
  // (2, 0) lies close to the mu = 1 limit cycle (amplitude about 2, period about 6.66), so
  // the default 20 s covers three cycles with no long transient.
  info.default_x0 = Vector{{2.0, 0.0}};
  info.default_tf = 20.0;
  return info;
}

}  // namespace

VanDerPol::VanDerPol() : Model(van_der_pol_info()) {}

namespace {

// f on Vector (rhs) and on std::array (the fixed-size path): one body, the same numbers.
template <class State>
[[gnu::always_inline]] inline void van_der_pol_rhs(const Context& context, const State& x,
                                                   State& dxdt) {
  const double mu = context.p[0];
  dxdt[0] = x[1];
  dxdt[1] = mu * (1.0 - x[0] * x[0]) * x[1] - x[0];
}

}  // namespace

void VanDerPol::rhs(double /*t*/, const Vector& x, const Context& context, Vector& dxdt) const {
  dxdt.resize(2);
  van_der_pol_rhs(context, x, dxdt);
}

std::unique_ptr<Stepper> VanDerPol::fixed_size_stepper(const std::string& method,
                                                       const Context& context) const {
  return fixed_size_stepper_of<2>(
      method, context,
      [](double /*t*/, const auto& x, const Context& c, auto& dxdt)
          SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA { van_der_pol_rhs(c, x, dxdt); });
}

void VanDerPol::jacobian(double /*t*/, const Vector& x, const Context& context,
                         Matrix& dfdx) const {
  const double mu = context.p[0];
  dfdx.resize(2, 2);
  dfdx << 0.0, 1.0, -2.0 * mu * x[0] * x[1] - 1.0, mu * (1.0 - x[0] * x[0]);
}

}  // namespace simverify::simulation::models
