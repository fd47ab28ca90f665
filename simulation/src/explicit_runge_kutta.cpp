#include <simverify/simulation/explicit_runge_kutta.hpp>

#include <stdexcept>

#if defined(__GNUC__) && !defined(__clang__)
#define SIMVERIFY_SCALAR_STAGE_LOADS [[gnu::optimize("no-tree-slp-vectorize")]]
#else
#define SIMVERIFY_SCALAR_STAGE_LOADS
#endif

namespace simverify::simulation {

ExplicitRungeKutta::ExplicitRungeKutta(const ButcherTableau& tableau)
    : tableau_(&tableau), fsal_(tableau.is_fsal()) {
  if (!tableau.is_explicit()) {
    throw std::invalid_argument("ExplicitRungeKutta: tableau '" + tableau.name +
                                "' is not explicit (A must be strictly lower triangular)");
  }
  const int s = tableau.stages();
  const auto add = [this](int j, double value) {
    if (value == 0.0) return;
    value_.push_back(value);
    stage_.push_back(j);
  };
  for (int i = 0; i < s; ++i) {
    const std::size_t begin = value_.size();
    for (int j = 0; j < i; ++j) add(j, tableau.a(i, j));
    a_rows_.push_back({begin, value_.size()});
  }
  b_terms_.begin = value_.size();
  for (int i = 0; i < s; ++i) add(i, tableau.b(i));
  b_terms_.end = e_terms_.begin = value_.size();
  if (tableau.is_embedded()) {
    // Thm 3.34: the difference of the two solutions estimates the local error.
    for (int i = 0; i < s; ++i) add(i, tableau.b(i) - (*tableau.b_hat)(i));
  }
  e_terms_.end = value_.size();
  stage_data_.resize(static_cast<std::size_t>(s));
}

void ExplicitRungeKutta::resize(Eigen::Index dimension) {
  k_.assign(static_cast<std::size_t>(tableau_->stages()), Vector::Zero(dimension));
  stage_state_.resize(dimension);
}

// The sums of four components are held in registers, so no store-to-load dependency runs
// through `out` from one term to the next (a per-term axpy is latency bound on small
// systems). Each sum starts from `base` and adds the stages in order, so the newest stage,
// the one f has just returned, enters last with a single multiply-add.
// The stages are read and the sums written one double at a time on purpose: f usually
// reads and writes one component at a time, and a 16-byte load of two 8-byte stores (or an
// 8-byte load of the upper half of a 16-byte store) is not forwarded from the store buffer;
// it waits until the stores reach the cache, on the critical path of every stage (measured
// on a 4-state Dormand-Prince step: 12% for the loads, 50% for the stores). GCC's SLP
// vectorizer would merge the loads, hence the attribute (GCC only; elsewhere it is left out
// rather than warned about).
SIMVERIFY_SCALAR_STAGE_LOADS void ExplicitRungeKutta::combine(const double* base, double h,
                                                              Terms terms, double* out) const {
  const Eigen::Index n = stage_state_.size();
  const double* coefficient = value_.data() + terms.begin;
  const int* stage = stage_.data() + terms.begin;
  const std::size_t m = terms.end - terms.begin;
  const double* const* k = stage_data_.data();
  Eigen::Index d = 0;
  for (; d + 4 <= n; d += 4) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    if (base != nullptr) {
      s0 = base[d];
      s1 = base[d + 1];
      s2 = base[d + 2];
      s3 = base[d + 3];
    }
    for (std::size_t q = 0; q < m; ++q) {
      const double c = h * coefficient[q];
      const double* kq = k[stage[q]] + d;
      s0 += c * kq[0];
      s1 += c * kq[1];
      s2 += c * kq[2];
      s3 += c * kq[3];
    }
    out[d] = s0;
    out[d + 1] = s1;
    out[d + 2] = s2;
    out[d + 3] = s3;
  }
  for (; d < n; ++d) {
    double sum = base != nullptr ? base[d] : 0.0;
    for (std::size_t q = 0; q < m; ++q) sum += (h * coefficient[q]) * k[stage[q]][d];
    out[d] = sum;
  }
}

void ExplicitRungeKutta::compute_stages(const OdeSystem& system, double t, const Vector& x,
                                        double h, const Vector* first_stage, Vector& x_next) {
  const ButcherTableau& tab = *tableau_;
  if (k_.empty() || k_.front().size() != x.size()) resize(x.size());
  x_next.resize(x.size());
  const auto s = static_cast<std::size_t>(tab.stages());
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
    combine(x.data(), h, a_rows_[i], argument.data());
    system.rhs(t + tab.c(static_cast<Eigen::Index>(i)) * h, argument, k_[i]);
  }
  // Alg 1, line 7: x_{j+1} = x_j + h sum_i b_i k_i (for FSAL this was the last stage's
  // argument, the same sum term by term).
  if (!fsal_) combine(x.data(), h, b_terms_, x_next.data());
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
  compute_stages(system, t, x, h, first_stage, x_next);
  // e = h sum (b_i - b_hat_i) k_i, computed directly (not as x_next - x_hat, which would
  // lose the digits of e to cancellation).
  error.resize(x.size());
  combine(nullptr, h, e_terms_, error.data());
}

}  // namespace simverify::simulation
