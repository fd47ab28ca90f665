#include "models/robertson.hpp"

#include "models/fixed_size_rhs.hpp"

namespace simverify::simulation::models {

namespace {

ModelInfo robertson_info() {
  ModelInfo info;
  info.name = "robertson";
  info.takes_input = false;
  info.description = "Robertson's stiff chemical kinetics (three species, conserved sum)";
  info.states = {"y1", "y2", "y3"};
  info.outputs = {"y1", "y2", "y3"};
  info.state_units = {"1", "1", "1"};
  info.output_units = {"1", "1", "1"};
  info.parameters = {{"k1", 0.04, "1/s", "rate of A -> B"},
                     {"k2", 3.0e7, "1/s", "rate of B + B -> C + B"},
                     {"k3", 1.0e4, "1/s", "rate of B + C -> A + C"}};
  info.default_x0 = Vector{{1.0, 0.0, 0.0}};
  info.default_tf = 40.0;  // Hairer & Wanner's first reference interval
  return info;
}

}  // namespace

Robertson::Robertson() : Model(robertson_info()) {}

namespace {

// f on Vector (rhs) and on std::array (the fixed-size path): one body, the same numbers.
template <class State>
[[gnu::always_inline]] inline void robertson_rhs(const Context& context, const State& x,
                                                 State& dxdt) {
  const double k1 = context.p[0];
  const double k2 = context.p[1];
  const double k3 = context.p[2];
  const double forward = k1 * x[0];
  const double back = k3 * x[1] * x[2];
  const double dimer = k2 * x[1] * x[1];
  dxdt[0] = -forward + back;
  dxdt[1] = forward - dimer - back;
  dxdt[2] = dimer;
}

}  // namespace

void Robertson::rhs(double /*t*/, const Vector& x, const Context& context, Vector& dxdt) const {
  dxdt.resize(3);
  robertson_rhs(context, x, dxdt);
}

std::unique_ptr<Stepper> Robertson::fixed_size_stepper(const std::string& method,
                                                       const Context& context) const {
  return fixed_size_stepper_of<3>(
      method, context,
      [](double /*t*/, const auto& x, const Context& c, auto& dxdt)
          SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA { robertson_rhs(c, x, dxdt); });
}

void Robertson::jacobian(double /*t*/, const Vector& x, const Context& context,
                         Matrix& dfdx) const {
  const double k1 = context.p[0];
  const double k2 = context.p[1];
  const double k3 = context.p[2];
  dfdx.resize(3, 3);
  dfdx << -k1, k3 * x[2], k3 * x[1],                 //
      k1, -2.0 * k2 * x[1] - k3 * x[2], -k3 * x[1],  //
      0.0, 2.0 * k2 * x[1], 0.0;
}

}  // namespace simverify::simulation::models
