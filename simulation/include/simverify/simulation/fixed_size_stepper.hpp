#pragma once
// The fixed-size path (Model::fixed_size_stepper) for a model whose f the compiler cannot see:
// f given as a plain function and the object it works on (an FMU's functions, reached through
// pointers from dlopen). The stepper is the one the built-in models get (stages, sums, error
// norm, FSAL and dense output on std::array, compiled for the state count); f stays one
// indirect call per stage instead of being inlined.
#include <simverify/simulation/fixed_size_runge_kutta.hpp>
#include <simverify/simulation/stepper.hpp>

#include <memory>
#include <string>

namespace simverify::simulation {

// dxdt = f(t, x) on the model's n states: function(self, t, x, dxdt), x and dxdt n doubles.
struct PlainRhs {
  void (*function)(const void* self, double t, const double* x, double* dxdt) = nullptr;
  const void* self = nullptr;
};

// State counts up to this take the path. Each count is the whole stepper compiled for three
// tableaux (about 1 s of compile and 50 kB of code per count); a plain f (an FMU's: 100 and
// more instructions per call) leaves less to gain as n grows than an inlined built-in f does,
// so fewer counts than kMaxFixedSizeStates.
inline constexpr int kMaxPlainFixedSizeStates = 8;

// The fixed-size stepper of the adaptive method `method` for n states whose f is `rhs`;
// nullptr when the method has none (as for the built-in models: every method but ode23,
// ode45, rk43 and dopri54) or n is not in 1..kMaxPlainFixedSizeStates: the caller keeps the
// generic stepper then (the same steps and states, bitwise).
[[nodiscard]] std::unique_ptr<Stepper> make_fixed_size_stepper(const std::string& method, int n,
                                                               PlainRhs rhs);

}  // namespace simverify::simulation
