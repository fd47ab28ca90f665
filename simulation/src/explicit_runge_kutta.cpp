#include "explicit_runge_kutta.hpp"

#include <array>
#include <stdexcept>
#include <utility>

#if defined(__GNUC__) && !defined(__clang__)
#define SIMVERIFY_SCALAR_STAGE_ACCESS [[gnu::optimize("no-tree-vectorize")]]
#else
#define SIMVERIFY_SCALAR_STAGE_ACCESS
#endif

namespace simverify::simulation {

ExplicitRungeKutta::ExplicitRungeKutta(const ButcherTableau& tableau)
    : tableau_(&tableau), fsal_(tableau.is_fsal()) {
  if (!tableau.is_explicit()) {
    throw std::invalid_argument("ExplicitRungeKutta: tableau '" + tableau.name +
                                "' is not explicit (A must be strictly lower triangular)");
  }
  const int s = tableau.stages();
  for (int i = 0; i < s; ++i) {
    a_rows_.push_back(
        plan(std::vector<double>(tableau.a.row(i).begin(), tableau.a.row(i).begin() + i), true,
             tableau.c(i)));
  }
  b_terms_ = plan(std::vector<double>(tableau.b.begin(), tableau.b.end()), true, 1.0);
  if (tableau.is_embedded()) {
    // Thm 3.34: the difference of the two solutions estimates the local error.
    const Vector difference = tableau.b - *tableau.b_hat;
    e_terms_ = plan(std::vector<double>(difference.begin(), difference.end()), false, 1.0);
  }
  stage_data_.resize(static_cast<std::size_t>(s));
  if (s <= kMaxFixedSizeStages) fixed_tableau_.emplace(tableau);
}

namespace {

// GCOVR_EXCL_BR_START: compiled for 16 state counts times each shipped stage count, the whole
// step and f's call inlined in every copy, whose branches gcov counts apart (about 1,000); the
// bitwise tests of fixed_size_runge_kutta_test cover them.
template <int N, int S>
void fixed_size_on_system(const FixedSizeTableau& tableau, const OdeSystem& system, double t,
                          const Vector& x, double h, Vector* k, Vector& stage, Vector& x_next,
                          Vector* error, const Vector* first_stage) {
  fixed_size_step<N, S>(
      tableau,
      [&system](double ts, const Vector& xs, Vector& dx)
          SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA { system.rhs(ts, xs, dx); },
      t, x, h, k, stage, x_next, error, first_stage);
}
// GCOVR_EXCL_BR_STOP

template <int S, int... N>
constexpr auto fixed_size_table(std::integer_sequence<int, N...> /*dimensions - 1*/) {
  return std::array{&fixed_size_on_system<N + 1, S>...};
}

// The stage counts of the shipped explicit tableaux (Euler 1 ... Dormand-Prince 7, RK8(7)13M
// 13); other counts take the generic path.
template <int S>
auto fixed_size_for(Eigen::Index n) {
  static constexpr auto kTable =
      fixed_size_table<S>(std::make_integer_sequence<int, kMaxFixedSizeStates>{});
  return kTable[static_cast<std::size_t>(n - 1)];
}

}  // namespace

void ExplicitRungeKutta::resize(Eigen::Index dimension) {
  k_.assign(static_cast<std::size_t>(tableau_->stages()), Vector::Zero(dimension));
  stage_state_.resize(dimension);
  fixed_step_ = nullptr;
  if (!allow_fixed_size_ || !fixed_tableau_ || dimension < 1 || dimension > kMaxFixedSizeStates) {
    return;
  }
  switch (tableau_->stages()) {
    case 1: fixed_step_ = fixed_size_for<1>(dimension); break;
    case 2: fixed_step_ = fixed_size_for<2>(dimension); break;
    case 3: fixed_step_ = fixed_size_for<3>(dimension); break;
    case 4: fixed_step_ = fixed_size_for<4>(dimension); break;
    case 5: fixed_step_ = fixed_size_for<5>(dimension); break;
    case 6: fixed_step_ = fixed_size_for<6>(dimension); break;
    case 7: fixed_step_ = fixed_size_for<7>(dimension); break;
    case 13: fixed_step_ = fixed_size_for<13>(dimension); break;
    default: break;
  }
}

namespace {

// out = base + sum_q (h coefficient_q) k_{stage_q} with the number of terms M known at compile
// time: the scaled coefficients and the stage pointers are loaded once per call and stay in
// registers, so each term costs one load, one multiply and one add per component (with a
// run-time term count, the loop over terms reloaded coefficient, stage index and pointer for
// every term and component block: 21 instructions per term on a 4-state system, now 12).
// Each sum adds the stages in order, so the newest stage, the one f has just returned, enters
// last with a single multiply-add.
// The stages are read and the sums written one double at a time on purpose: f usually reads
// and writes one component at a time, and a 16-byte load of two 8-byte stores (or an 8-byte
// load of the upper half of a 16-byte store) is not forwarded from the store buffer; it waits
// until the stores reach the cache, on the critical path of every stage (measured on a
// 4-state Dormand-Prince step: 12% for the loads, 50% for the stores). GCC's vectorizers
// would merge them, hence the attribute (GCC only; elsewhere it is left out rather than
// warned about). Terms is ExplicitRungeKutta::Combination (private there, so a parameter here).
// The functions take six arguments (CombineFunction), all in integer registers under the
// System V ABI: a seventh would go on the stack and be loaded back before every stage sum.
template <class Terms, std::size_t M, bool HasBase>
SIMVERIFY_SCALAR_STAGE_ACCESS void combine_terms(const Terms& terms, const double* const* k,
                                                 Eigen::Index n, const double* base, double h,
                                                 double* out) {
  std::array<double, M> scaled{};
  std::array<const double*, M> kq{};
  for (std::size_t q = 0; q < M; ++q) {
    scaled[q] = h * terms.coefficient[q];
    kq[q] = k[terms.stage[q]];
  }
  for (Eigen::Index d = 0; d < n; ++d) {
    double sum = HasBase ? base[d] : 0.0;
#pragma GCC unroll 16
    for (std::size_t q = 0; q < M; ++q) sum += scaled[q] * kq[q][d];
    out[d] = sum;
  }
}

// Any term count, for tableaux with more non-zeros in a row than kMaxUnrolledTerms.
template <class Terms, bool HasBase>
SIMVERIFY_SCALAR_STAGE_ACCESS void combine_any(const Terms& terms, const double* const* k,
                                               Eigen::Index n, const double* base, double h,
                                               double* out) {
  const std::size_t count = terms.coefficient.size();
  for (Eigen::Index d = 0; d < n; ++d) {
    double sum = HasBase ? base[d] : 0.0;
    for (std::size_t q = 0; q < count; ++q) {
      sum += (h * terms.coefficient[q]) * k[terms.stage[q]][d];
    }
    out[d] = sum;
  }
}

template <class Terms, bool HasBase, std::size_t... M>
constexpr auto unrolled(std::index_sequence<M...> /*term counts*/) {
  return std::array{&combine_terms<Terms, M, HasBase>...};
}

// Indexed by the number of terms: RK8(7)13M, the largest shipped tableau, has at most 12
// non-zeros in a row of a, b or b - b_hat.
constexpr std::size_t kMaxUnrolledTerms = 16;

}  // namespace

ExplicitRungeKutta::Combination ExplicitRungeKutta::plan(std::vector<double> coefficients,
                                                         bool with_base, double node) {
  Combination terms;
  terms.node = node;
  for (std::size_t j = 0; j < coefficients.size(); ++j) {
    if (coefficients[j] == 0.0) continue;
    terms.coefficient.push_back(coefficients[j]);
    terms.stage.push_back(static_cast<int>(j));
  }
  const std::size_t count = terms.coefficient.size();
  if (count <= kMaxUnrolledTerms) {
    constexpr auto kTermCounts = std::make_index_sequence<kMaxUnrolledTerms + 1>{};
    static constexpr auto kWithBase = unrolled<Combination, true>(kTermCounts);
    static constexpr auto kWithoutBase = unrolled<Combination, false>(kTermCounts);
    terms.function = (with_base ? kWithBase : kWithoutBase)[count];
  } else {
    terms.function = with_base ? &combine_any<Combination, true> : &combine_any<Combination, false>;
  }
  return terms;
}

void ExplicitRungeKutta::compute_stages(const OdeSystem& system, double t, const Vector& x,
                                        double h, const Vector* first_stage, Vector& x_next) {
  if (k_.empty() || k_.front().size() != x.size()) resize(x.size());
  x_next.resize(x.size());
  if (fixed_step_ != nullptr) {
    fixed_step_(*fixed_tableau_, system, t, x, h, k_.data(), stage_state_, x_next, nullptr,
                first_stage);
    return;
  }
  const std::size_t s = k_.size();
  for (std::size_t j = 0; j < s; ++j) stage_data_[j] = k_[j].data();
  // Alg 1, line 5: k_i = f(t + c_i h, x + h sum_{j<i} a_ij k_j)
  if (first_stage != nullptr) {
    // The stages read k_1 where it is (f just stored it there, one double at a time); the
    // copy kept for stages() is off the critical path.
    stage_data_[0] = first_stage->data();
    k_[0] = *first_stage;
  } else {
    system.rhs(t, x, k_[0]);
  }
  for (std::size_t i = 1; i < s; ++i) {
    Vector& argument = fsal_ && i + 1 == s ? x_next : stage_state_;
    const Combination& row = a_rows_[i];
    combine(row, x.data(), h, argument.data());
    system.rhs(t + row.node * h, argument, k_[i]);
  }
  // Alg 1, line 7: x_{j+1} = x_j + h sum_i b_i k_i (for FSAL this was the last stage's
  // argument, the same sum term by term).
  if (!fsal_) combine(b_terms_, x.data(), h, x_next.data());
}

void ExplicitRungeKutta::step(const OdeSystem& system, double t, const Vector& x, double h,
                              Vector& x_next) {
  compute_stages(system, t, x, h, nullptr, x_next);
}

void ExplicitRungeKutta::step_with_error(const OdeSystem& system, double t, const Vector& x,
                                         double h, Vector& x_next, Vector& error,
                                         const Vector* first_stage) {
  if (!tableau_->is_embedded()) {
    throw std::logic_error("step_with_error: tableau '" + tableau_->name + "' has no embedding");
  }
  error.resize(x.size());
  if (k_.empty() || k_.front().size() != x.size()) resize(x.size());
  if (fixed_step_ != nullptr) {
    x_next.resize(x.size());
    fixed_step_(*fixed_tableau_, system, t, x, h, k_.data(), stage_state_, x_next, &error,
                first_stage);
    return;
  }
  compute_stages(system, t, x, h, first_stage, x_next);
  // e = h sum (b_i - b_hat_i) k_i, computed directly (not as x_next - x_hat, which would
  // lose the digits of e to cancellation).
  combine(e_terms_, nullptr, h, error.data());
}

}  // namespace simverify::simulation
