// make_fixed_size_stepper for a plain f (fixed_size_stepper.hpp): the fixed-size adaptive
// stepper instantiated for every state count it serves, f called through its pointer.
#include <simverify/simulation/fixed_size_stepper.hpp>

#include "methods/fixed_size_adaptive_stepper.hpp"

#include <array>
#include <utility>

namespace simverify::simulation {
namespace {

static_assert(kMaxPlainFixedSizeStates >= 1 && kMaxPlainFixedSizeStates <= kMaxFixedSizeStates);

template <int N>
std::unique_ptr<Stepper> plain_fixed_size_stepper(const std::string& method, PlainRhs rhs) {
  using State = std::array<double, N>;
  return detail::make_fixed_size_stepper<N>(method, [rhs](double t, const State& x, State& dxdt) {
    rhs.function(rhs.self, t, x.data(), dxdt.data());
  });
}

template <std::size_t... I>
std::unique_ptr<Stepper> plain_fixed_size_stepper(const std::string& method, int n, PlainRhs rhs,
                                                  std::index_sequence<I...> /*0..max-1*/) {
  std::unique_ptr<Stepper> stepper;
  // The instantiation for n: the first (and only) I + 1 equal to it.
  (void)((n == static_cast<int>(I) + 1 &&
          (stepper = plain_fixed_size_stepper<I + 1>(method, rhs), true)) ||
         ...);
  return stepper;
}

}  // namespace

std::unique_ptr<Stepper> make_fixed_size_stepper(const std::string& method, int n, PlainRhs rhs) {
  if (rhs.function == nullptr) return nullptr;
  return plain_fixed_size_stepper(method, n, rhs,
                                  std::make_index_sequence<kMaxPlainFixedSizeStates>{});
}

}  // namespace simverify::simulation
