#pragma once
// Alg 1 for small systems: the explicit Runge-Kutta step with the state size N and the stage
// count S known at compile time, and the right-hand side a template parameter, so the
// compiler unrolls the stage sums over the N components and, when f is a lambda, inlines it
// (no std::function call per stage). The coefficients stay data (a FixedSizeTableau copied
// from any explicit ButcherTableau): one algorithm for every tableau, as the generic
// ExplicitRungeKutta.
//
// ExplicitRungeKutta takes this path by itself for systems of up to kMaxFixedSizeStates
// states (its f is then the OdeSystem); C++ callers with a small system of their own can call
// fixed_size_step directly on std::array states and a lambda.
//
// The arithmetic is the generic step's, term by term: each stage sum starts from the base
// and adds (h a_ij) k_j in order of j, so both paths give bitwise the same results (tested
// for every explicit tableau). Unlike the generic step it does not skip zero coefficients:
// a test per term costs more than the multiply (Arenstorf, ode45: 1.83 M instructions per
// solve with the tests, 1.64 M without). Adding h 0 k_j = +-0 changes no sum except the
// sign of an exact -0, and turns a non-finite k_j under a zero coefficient into NaN, which
// the error test rejects.
#include <simverify/simulation/butcher_tableau.hpp>

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#if defined(__GNUC__) && !defined(__clang__)
// As in the generic step: read stages and write sums one double at a time (f writes its
// results one component at a time; a wider load of narrower stores is not store-forwarded).
#define SIMVERIFY_FIXED_SIZE_SCALAR [[gnu::optimize("no-tree-vectorize")]]
#define SIMVERIFY_FIXED_SIZE_INLINE [[gnu::always_inline, gnu::optimize("no-tree-vectorize")]]
#else
#define SIMVERIFY_FIXED_SIZE_SCALAR
#define SIMVERIFY_FIXED_SIZE_INLINE
#endif

namespace simverify::simulation {

// Systems up to this many states take the fixed-size path (above it, the generic path's
// run-time loop costs little next to the sums themselves).
inline constexpr int kMaxFixedSizeStates = 16;
// The largest shipped explicit tableau, RK8(7)13M, has 13 stages.
inline constexpr int kMaxFixedSizeStages = 13;

// The coefficients of an explicit tableau in fixed-size arrays (the first stages() entries
// are used), with e = b - b_hat for the embedded error estimate (Thm 3.34).
struct FixedSizeTableau {
  int stages = 0;
  bool fsal = false;
  bool embedded = false;
  std::array<std::array<double, kMaxFixedSizeStages>, kMaxFixedSizeStages> a{};
  std::array<double, kMaxFixedSizeStages> b{};
  std::array<double, kMaxFixedSizeStages> c{};
  std::array<double, kMaxFixedSizeStages> e{};

  explicit FixedSizeTableau(const ButcherTableau& tableau)
      : stages(tableau.stages()), fsal(tableau.is_fsal()), embedded(tableau.is_embedded()) {
    if (!tableau.is_explicit() || stages > kMaxFixedSizeStages) {
      throw std::invalid_argument("FixedSizeTableau: tableau '" + tableau.name +
                                  "' is not explicit or has more than " +
                                  std::to_string(kMaxFixedSizeStages) + " stages");
    }
    for (int i = 0; i < stages; ++i) {
      const auto row = static_cast<std::size_t>(i);
      for (int j = 0; j < i; ++j) a[row][static_cast<std::size_t>(j)] = tableau.a(i, j);
      b[row] = tableau.b(i);
      c[row] = tableau.c(i);
      if (embedded) e[row] = tableau.b(i) - (*tableau.b_hat)(i);
    }
  }
};

namespace fixed_size_detail {  // GCOVR_EXCL_BR_START (see the end of the file)

// out = base + sum_{j < Terms} (h w_j) k_j (base null: 0), the terms in order of j.
template <int N, int Terms>
SIMVERIFY_FIXED_SIZE_INLINE inline void sum_stages(const double* base,
                                                   const std::array<double, kMaxFixedSizeStages>& w,
                                                   const double* const* k, double h, double* out) {
  std::array<double, N> sum{};
  for (int d = 0; d < N; ++d) sum[d] = base != nullptr ? base[d] : 0.0;
  for (int j = 0; j < Terms; ++j) {
    const double scaled = h * w[static_cast<std::size_t>(j)];
    const double* kj = k[j];
    for (int d = 0; d < N; ++d) sum[d] += scaled * kj[d];
  }
  for (int d = 0; d < N; ++d) out[d] = sum[d];
}

template <int N, int S, class State, class Rhs, std::size_t... I>
SIMVERIFY_FIXED_SIZE_INLINE inline void later_stages(const FixedSizeTableau& tableau, Rhs& f,
                                                     double t, const State& x, double h, State* k,
                                                     std::array<const double*, S>& kp, State& stage,
                                                     State& x_next,
                                                     std::index_sequence<I...> /*1..S-1*/) {
  // Alg 1, line 5: k_i = f(t + c_i h, x + h sum_{j<i} a_ij k_j); for FSAL the last stage's
  // argument is x_next itself.
  [[maybe_unused]] const auto one = [&]<std::size_t Row>(std::integral_constant<std::size_t, Row>) {
    State& argument = tableau.fsal && Row + 1 == S ? x_next : stage;
    sum_stages<N, static_cast<int>(Row)>(x.data(), tableau.a[Row], kp.data(), h, argument.data());
    f(t + tableau.c[Row] * h, static_cast<const State&>(argument), k[Row]);
    kp[Row] = k[Row].data();
  };
  (one(std::integral_constant<std::size_t, I + 1>{}), ...);
}

}  // namespace fixed_size_detail

// One step of the explicit tableau (tableau.stages == S) on a system of N states:
// x_next = Psi(h, x) (Def 3.12) and, when error is given (embedded tableaux only), the
// difference of the two embedded solutions e = h sum (b_i - b_hat_i) k_i (Thm 3.34).
// k points at S stage buffers; first_stage, when given, is f(t, x) (FSAL) and is copied to
// k[0]; stage is the workspace of the stage arguments. State is any type with data() of N
// contiguous doubles (std::array<double, N>, Eigen vectors of size N); f is called as
// f(t, const State& x, State& dxdt). x_next, stage and k may not alias x or each other.
template <int N, int S, class State, class Rhs>
SIMVERIFY_FIXED_SIZE_SCALAR void fixed_size_step(const FixedSizeTableau& tableau, Rhs&& f, double t,
                                                 const State& x, double h, State* k, State& stage,
                                                 State& x_next, State* error,
                                                 const State* first_stage = nullptr) {
  static_assert(N >= 1 && S >= 1 && S <= kMaxFixedSizeStages);
  std::array<const double*, S> kp{};
  if (first_stage != nullptr) {
    // The stages read k_1 where f stored it; the copy kept in k[0] is off the critical path.
    kp[0] = first_stage->data();
    // N doubles, not State's assignment: for Eigen stages that is a size check and a loop
    // over a run-time size (about 30 instructions on 4 states, 8 this way).
    const double* from = first_stage->data();
    double* to = k[0].data();
    for (int d = 0; d < N; ++d) to[d] = from[d];
  } else {
    f(t, x, k[0]);
    kp[0] = k[0].data();
  }
  fixed_size_detail::later_stages<N, S>(tableau, f, t, x, h, k, kp, stage, x_next,
                                        std::make_index_sequence<S - 1>{});
  // Alg 1, line 7: x_{j+1} = x_j + h sum_i b_i k_i (for FSAL the last stage's argument).
  if (!tableau.fsal)
    fixed_size_detail::sum_stages<N, S>(x.data(), tableau.b, kp.data(), h, x_next.data());
  if (error != nullptr) {
    fixed_size_detail::sum_stages<N, S>(nullptr, tableau.e, kp.data(), h, error->data());
  }
}  // GCOVR_EXCL_BR_STOP

}  // namespace simverify::simulation

// Coverage: gcov counts the branches of every instantiation (state counts up to 16 times
// stage counts) apart, so this one algorithm's loops made 9,162 of the tree's 41,632 branches
// (a fresh ci/verify: branches 46.5 % with them, 52.4 % without), most in instantiations no
// test runs. Its branches are left out of the figure (the GCOVR_EXCL_BR markers above); its
// lines still count, and fixed_size_runge_kutta_test checks it bitwise against the generic
// path for every explicit tableau.
