#pragma once
// How a built-in model opts into the fixed-size path (Model::fixed_size_stepper): it writes its
// right-hand side once, as a template on the state type (indexing x[i], dxdt[i]), calls it
// from rhs() on Vectors and hands it to fixed_size_stepper_of<N> for std::array<double, N>,
// where the compiler inlines it into every stage of the fixed-size stepper. One f, so both
// paths compute the same numbers.
#include "methods/fixed_size_adaptive_stepper.hpp"

#include <simverify/simulation/model.hpp>

#include <array>
#include <memory>
#include <string>

namespace simverify::simulation {

// The fixed-size stepper of `method` for a model of N states whose f is
// f(t, const std::array<double, N>& x, const Context& context, std::array<double, N>& dxdt);
// it reads `context` (the run's, which outlives the stepper) at every evaluation. nullptr
// when the method has no fixed-size stepper.
template <int N, class F>
std::unique_ptr<Stepper> fixed_size_stepper_of(const std::string& method, const Context& context,
                                               F f) {
  using State = std::array<double, N>;
  return detail::make_fixed_size_stepper<N>(
      method, [&context, f](double t, const State& x, State& dxdt) { f(t, x, context, dxdt); });
}

}  // namespace simverify::simulation
