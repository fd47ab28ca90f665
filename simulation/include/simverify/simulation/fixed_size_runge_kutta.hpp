#pragma once
// Alg 1 for small systems: the explicit Runge-Kutta step with the state size N and the stage
// count S known at compile time, and the right-hand side a template parameter, so the
// compiler unrolls the stage sums over the N components and, when f is a lambda, inlines it
// (no std::function call per stage). The coefficients stay data (a FixedSizeTableau): one
// algorithm for every tableau, as the generic ExplicitRungeKutta, in two forms:
//   fixed_size_step<N, S>(tableau, f, ...)  the tableau a run-time value (copied from any
//                                           explicit ButcherTableau);
//   fixed_size_step<N, kTableau>(f, ...)    a constexpr tableau as a template argument (the
//                                           shipped adaptive pairs, fixed_size_tableaux.hpp):
//                                           its zero coefficients are known at compile time
//                                           and get no term, the others are constants.
//
// ExplicitRungeKutta takes the first form by itself for systems of up to kMaxFixedSizeStates
// states (its f is then the OdeSystem); the fixed-size adaptive stepper takes the second. C++
// callers with a small system of their own can call either directly on std::array states
// and a lambda.
//
// The arithmetic is the generic step's, term by term: each stage sum starts from the base
// and adds (h a_ij) k_j in order of j, so all paths give bitwise the same results (tested
// for every explicit tableau). The generic step and the constexpr form leave out the zero
// coefficients; the run-time form multiplies them, since a test per term costs more than the
// multiply (Arenstorf, ode45: 1.83 M instructions per solve with the tests, 1.64 M without).
// Adding h 0 k_j = +-0 changes no sum except the sign of an exact -0, and turns a
// non-finite k_j under a zero coefficient into NaN, which the error test rejects.
#include <simverify/simulation/butcher_tableau.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__GNUC__) && !defined(__clang__)
// GCC's vectorizers would merge the newest stage's loads and the sums' stores into 16-byte
// accesses, which are not store-forwarded (sum_stages): the pairs are written out by hand.
#define SIMVERIFY_FIXED_SIZE_SCALAR [[gnu::optimize("no-tree-vectorize")]]
#define SIMVERIFY_FIXED_SIZE_INLINE [[gnu::always_inline, gnu::optimize("no-tree-vectorize")]]
// The same for a lambda (after its parameters): a lambda does not take its enclosing function's
// attributes, and with them missing GCC's size limits decided whether a stage inlines.
#define SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA \
  __attribute__((always_inline, optimize("no-tree-vectorize")))
#else
#define SIMVERIFY_FIXED_SIZE_SCALAR
#define SIMVERIFY_FIXED_SIZE_INLINE
#define SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA
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
  using Coefficients = std::array<double, kMaxFixedSizeStages>;
  int stages = 0;
  bool fsal = false;
  bool embedded = false;
  std::array<Coefficients, kMaxFixedSizeStages> a{};
  Coefficients b{};
  Coefficients c{};
  Coefficients b_hat{};
  Coefficients e{};

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
      if (embedded) {
        b_hat[row] = (*tableau.b_hat)(i);
        e[row] = b[row] - b_hat[row];
      }
    }
  }

  // An explicit tableau as printed (Def 3.23, 3.32): c, the rows of a below the diagonal
  // (missing entries are zero), b and, for an embedded pair, b_hat (empty: none). constexpr,
  // so a tableau written this way can be a template argument of fixed_size_step.
  constexpr FixedSizeTableau(std::initializer_list<double> nodes,
                             std::initializer_list<std::initializer_list<double>> rows,
                             std::initializer_list<double> weights,
                             std::initializer_list<double> embedded_weights = {})
      : stages(static_cast<int>(nodes.size())), embedded(embedded_weights.size() != 0) {
    if (nodes.size() > kMaxFixedSizeStages || rows.size() != nodes.size() ||
        weights.size() != nodes.size() || (embedded && embedded_weights.size() != nodes.size())) {
      throw std::invalid_argument("FixedSizeTableau: c, a, b and b_hat differ in stages");
    }
    std::size_t i = 0;
    for (const auto& row : rows) {
      if (row.size() > i) throw std::invalid_argument("FixedSizeTableau: a is not explicit");
      std::size_t j = 0;
      for (const double v : row) a[i][j++] = v;
      ++i;
    }
    std::copy(nodes.begin(), nodes.end(), c.begin());
    std::copy(weights.begin(), weights.end(), b.begin());
    std::copy(embedded_weights.begin(), embedded_weights.end(), b_hat.begin());
    for (std::size_t k = 0; embedded && k < nodes.size(); ++k) e[k] = b[k] - b_hat[k];
    // First same as last (ButcherTableau::is_fsal): the last row of a is b and c_s = 1.
    const auto s = nodes.size();
    fsal = s >= 2 && c[s - 1] == 1.0 && b[s - 1] == 0.0;
    for (std::size_t k = 0; fsal && k + 1 < s; ++k) fsal = a[s - 1][k] == b[k];
  }

  // Equal where the coefficients are used (both constructors leave the rest 0): the Simulator
  // matches a method's tableau against the compile-time ones on every run, and comparing all
  // 13 x 13 entries of a cost a quarter of what it adds to its stepper (issue 19).
  friend constexpr bool operator==(const FixedSizeTableau& left, const FixedSizeTableau& right) {
    if (left.stages != right.stages || left.fsal != right.fsal || left.embedded != right.embedded) {
      return false;
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(left.stages); ++i) {
      if (left.b[i] != right.b[i] || left.c[i] != right.c[i] || left.b_hat[i] != right.b_hat[i] ||
          left.e[i] != right.e[i]) {
        return false;
      }
      for (std::size_t j = 0; j < i; ++j) {
        if (left.a[i][j] != right.a[i][j]) return false;
      }
    }
    return true;
  }
};

namespace fixed_size_detail {  // GCOVR_EXCL_BR_START (see the end of the file)

// Which terms a stage sum has: bit j for the term of k_j.
using TermMask = std::uint32_t;
static_assert(kMaxFixedSizeStages <= 32);

// sum += (h w_J) k_J when the term is there; nothing at all when not.
template <int N, TermMask Terms, std::size_t J>
SIMVERIFY_FIXED_SIZE_INLINE inline void add_term(std::array<double, N>& sum,
                                                 const FixedSizeTableau::Coefficients& w,
                                                 const double* const* k, double h) {
  if constexpr (((Terms >> J) & 1U) != 0) {
    const double scaled = h * w[J];
    const double* kj = k[J];
    for (int d = 0; d < N; ++d) sum[d] += scaled * kj[d];
  }
}

// out = base + sum_{j in Terms} (h w_j) k_j (base null: 0), the terms in order of j; k_Newest
// is the stage f has just written.
// With SSE2 two components share a register: the same multiplies and adds per component in
// the same order, so the same results bitwise, in half the instructions (Arenstorf, ode45
// fixed-size: 1254 k -> 1094 k per solve at 1e-10). The newest stage is still read, and the
// sum written, one double at a time: f writes its results and reads its argument one
// component at a time, and a 16-byte load of two 8-byte stores (or an 8-byte load of the
// upper half of a 16-byte store) is not forwarded from the store buffer; it waits until the
// stores reach the cache, on the critical path of every stage (measured on a 4-state
// Dormand-Prince step: 12% slower for the loads, 50% for the stores). Older stages and the
// base have long left the store buffer when they are read.
template <int N, TermMask Terms, std::size_t Newest, std::size_t... J>
SIMVERIFY_FIXED_SIZE_INLINE inline void sum_stages(const double* base,
                                                   const FixedSizeTableau::Coefficients& w,
                                                   const double* const* k, double h, double* out,
                                                   std::index_sequence<J...> /*0..S-1*/) {
#if defined(__SSE2__)
  if constexpr (N >= 2) {
    constexpr std::ptrdiff_t kPairs = N / 2;
    __m128d pair[kPairs];
    for (std::ptrdiff_t q = 0; q < kPairs; ++q) {
      pair[q] = base != nullptr ? _mm_loadu_pd(base + 2 * q) : _mm_setzero_pd();
    }
    const auto add = [&]<std::size_t I>(std::integral_constant<std::size_t, I>)
                         SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA {
                           if constexpr (((Terms >> I) & 1U) != 0) {
                             const __m128d scaled = _mm_set1_pd(h * w[I]);
                             const double* kj = k[I];
                             for (std::ptrdiff_t q = 0; q < kPairs; ++q) {
                               const __m128d v = I == Newest ? _mm_loadh_pd(_mm_load_sd(kj + 2 * q),
                                                                            kj + 2 * q + 1)
                                                             : _mm_loadu_pd(kj + 2 * q);
                               pair[q] = _mm_add_pd(pair[q], _mm_mul_pd(scaled, v));
                             }
                           }
                         };
    (add(std::integral_constant<std::size_t, J>{}), ...);
    for (std::ptrdiff_t q = 0; q < kPairs; ++q) {
      _mm_store_sd(out + 2 * q, pair[q]);
      _mm_storeh_pd(out + 2 * q + 1, pair[q]);
    }
    if constexpr (N % 2 == 1) {
      std::array<double, 1> tail{base != nullptr ? base[N - 1] : 0.0};
      const double* shifted[sizeof...(J)] = {(k[J] + (N - 1))...};
      (add_term<1, Terms, J>(tail, w, shifted, h), ...);
      out[N - 1] = tail[0];
    }
    return;
  }
#endif
  std::array<double, N> sum{};
  for (int d = 0; d < N; ++d) sum[d] = base != nullptr ? base[d] : 0.0;
  (add_term<N, Terms, J>(sum, w, k, h), ...);
  for (int d = 0; d < N; ++d) out[d] = sum[d];
}

// The terms of a run-time tableau: all of the first `count` (zeros are multiplied).
struct EveryTerm {
  static constexpr TermMask first(int count) { return (TermMask{1} << count) - 1; }
  static constexpr TermMask a_row(int row) { return first(row); }
  static constexpr TermMask b(int stages) { return first(stages); }
  static constexpr TermMask e(int stages) { return first(stages); }
};

// The terms of the constexpr tableau T: its non-zero coefficients only.
template <const FixedSizeTableau& T>
struct NonZeroTerms {
  static constexpr TermMask of(const FixedSizeTableau::Coefficients& w, int count) {
    TermMask mask = 0;
    for (int j = 0; j < count; ++j) {
      if (w[static_cast<std::size_t>(j)] != 0.0) mask |= TermMask{1} << j;
    }
    return mask;
  }
  static constexpr TermMask a_row(int row) { return of(T.a[static_cast<std::size_t>(row)], row); }
  static constexpr TermMask b(int stages) { return of(T.b, stages); }
  static constexpr TermMask e(int stages) { return of(T.e, stages); }
};

template <int N, int S, class Terms, class State, class Rhs, std::size_t... I>
SIMVERIFY_FIXED_SIZE_INLINE inline void later_stages(const FixedSizeTableau& tableau, Rhs& f,
                                                     double t, const State& x, double h, State* k,
                                                     std::array<const double*, S>& kp, State& stage,
                                                     State& x_next,
                                                     std::index_sequence<I...> /*1..S-1*/) {
  // Alg 1, line 5: k_i = f(t + c_i h, x + h sum_{j<i} a_ij k_j); for FSAL the last stage's
  // argument is x_next itself.
  [[maybe_unused]] const auto one =
      [&]<std::size_t Row>(std::integral_constant<std::size_t, Row>)
          SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA {
            State& argument = tableau.fsal && Row + 1 == S ? x_next : stage;
            sum_stages<N, Terms::a_row(static_cast<int>(Row)), Row - 1>(
                x.data(), tableau.a[Row], kp.data(), h, argument.data(),
                std::make_index_sequence<Row>{});
            f(t + tableau.c[Row] * h, static_cast<const State&>(argument), k[Row]);
            kp[Row] = k[Row].data();
          };
  (one(std::integral_constant<std::size_t, I + 1>{}), ...);
}

template <int N, int S, class Terms, class State, class Rhs>
SIMVERIFY_FIXED_SIZE_INLINE inline void step(const FixedSizeTableau& tableau, Rhs& f, double t,
                                             const State& x, double h, State* k, State& stage,
                                             State& x_next, State* error,
                                             const State* first_stage) {
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
  later_stages<N, S, Terms>(tableau, f, t, x, h, k, kp, stage, x_next,
                            std::make_index_sequence<S - 1>{});
  // Alg 1, line 7: x_{j+1} = x_j + h sum_i b_i k_i (for FSAL the last stage's argument).
  constexpr auto kStages = std::make_index_sequence<S>{};
  if (!tableau.fsal) {
    sum_stages<N, Terms::b(S), S - 1>(x.data(), tableau.b, kp.data(), h, x_next.data(), kStages);
  }
  if (error != nullptr) {
    sum_stages<N, Terms::e(S), S - 1>(nullptr, tableau.e, kp.data(), h, error->data(), kStages);
  }
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
  fixed_size_detail::step<N, S, fixed_size_detail::EveryTerm>(tableau, f, t, x, h, k, stage, x_next,
                                                              error, first_stage);
}

// The same step with the tableau a compile-time constant (a constexpr FixedSizeTableau with
// static storage, e.g. fixed_size_tableaux::kDormandPrince54): only its non-zero
// coefficients make terms, with the values as constants.
template <int N, const FixedSizeTableau& T, class State, class Rhs>
SIMVERIFY_FIXED_SIZE_SCALAR void fixed_size_step(Rhs&& f, double t, const State& x, double h,
                                                 State* k, State& stage, State& x_next,
                                                 State* error, const State* first_stage = nullptr) {
  fixed_size_detail::step<N, T.stages, fixed_size_detail::NonZeroTerms<T>>(
      T, f, t, x, h, k, stage, x_next, error, first_stage);
}
// GCOVR_EXCL_BR_STOP (a line of its own: gcov repeats a function's last line in the listing of
// each of its instantiations, and gcovr reads every repeat as another stop)

}  // namespace simverify::simulation

// Coverage: gcov counts the branches of every instantiation (state counts up to 16 times
// stage counts) apart, so this one algorithm's loops made 9,162 of the tree's 41,632 branches
// (a fresh ci/verify: branches 46.5 % with them, 52.4 % without), most in instantiations no
// test runs. Its branches are left out of the figure (the GCOVR_EXCL_BR markers above); its
// lines still count, and fixed_size_runge_kutta_test checks it bitwise against the generic
// path for every explicit tableau.
