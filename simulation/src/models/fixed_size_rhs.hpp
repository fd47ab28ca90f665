#pragma once
// How a built-in model opts into the fixed-size path (Model::fixed_size_stepper): it writes its
// right-hand side once, as a template on the state type (indexing x[i], dxdt[i]), calls it
// from rhs() on Vectors and hands it to fixed_size_stepper_of<N> for std::array<double, N>
// (in a lambda), where the compiler inlines it into every stage of the fixed-size stepper. One
// f, so both paths compute the same numbers. The template f is [[gnu::always_inline]] and the
// lambda SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA, as the stages it is inlined into (see BoundRhs).
#include "methods/fixed_size_adaptive_stepper.hpp"

#include <simverify/simulation/model.hpp>

#include <array>
#include <memory>
#include <string>
#include <utility>

namespace simverify::simulation {

// f with the run's context bound, as the stepper calls it. Its call, like each model's lambda
// and f, is always inline: advance() is flattened, but in a file that instantiates every
// tableau GCC's unit-growth limit still left some of the stages' calls out of line
// (Arenstorf through the Simulator: 957 k -> 903 k instructions per solve at 1e-10 inlined).
template <int N, class F>
struct BoundRhs {
  const Context* context;
  F f;
  [[gnu::always_inline]] void operator()(double t, const std::array<double, N>& x,
                                         std::array<double, N>& dxdt) const {
    f(t, x, *context, dxdt);
  }
};

// The fixed-size stepper of `method` for a model of N states whose f is
// f(t, const std::array<double, N>& x, const Context& context, std::array<double, N>& dxdt);
// it reads `context` (the run's, which outlives the stepper) at every evaluation. nullptr
// when the method has no fixed-size stepper.
template <int N, class F>
std::unique_ptr<Stepper> fixed_size_stepper_of(const std::string& method, const Context& context,
                                               F f) {
  return detail::make_fixed_size_stepper<N>(method, BoundRhs<N, F>{&context, std::move(f)});
}

}  // namespace simverify::simulation
