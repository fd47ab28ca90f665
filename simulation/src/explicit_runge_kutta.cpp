#include <simverify/simulation/explicit_runge_kutta.hpp>

#include <stdexcept>

namespace simverify::simulation {

ExplicitRungeKutta::ExplicitRungeKutta(const ButcherTableau& tableau) : tableau_(&tableau) {
  if (!tableau.is_explicit()) {
    throw std::invalid_argument("ExplicitRungeKutta: tableau '" + tableau.name +
                                "' is not explicit (A must be strictly lower triangular)");
  }
  const int s = tableau.stages();
  a_row_.push_back(0);
  for (int i = 0; i < s; ++i) {
    for (int j = 0; j < i; ++j) {
      if (tableau.a(i, j) != 0.0) a_terms_.push_back({j, tableau.a(i, j)});
    }
    a_row_.push_back(a_terms_.size());
  }
  for (int i = 0; i < s; ++i) {
    if (tableau.b(i) != 0.0) b_terms_.push_back({i, tableau.b(i)});
    // Thm 3.34: the difference of the two solutions estimates the local error.
    const double e = tableau.is_embedded() ? tableau.b(i) - (*tableau.b_hat)(i) : 0.0;
    if (e != 0.0) e_terms_.push_back({i, e});
  }
  coefficient_.resize(static_cast<std::size_t>(s));
  stage_data_.resize(static_cast<std::size_t>(s));
}

void ExplicitRungeKutta::resize(Eigen::Index dimension) {
  k_.assign(static_cast<std::size_t>(tableau_->stages()), Vector::Zero(dimension));
  stage_state_.resize(dimension);
}

void ExplicitRungeKutta::combine(const double* base, Eigen::Index n, double h,
                                 const std::vector<Term>& terms, std::size_t begin, std::size_t end,
                                 double* out) {
  const std::size_t m = end - begin;
  for (std::size_t q = 0; q < m; ++q) {
    coefficient_[q] = h * terms[begin + q].value;
    stage_data_[q] = k_[static_cast<std::size_t>(terms[begin + q].j)].data();
  }
  // Four components at a time with the sums in registers: the stage loop then has no
  // store-to-load dependency through `out` (which made a per-stage axpy latency bound).
  Eigen::Index d = 0;
  for (; d + 4 <= n; d += 4) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    for (std::size_t q = 0; q < m; ++q) {
      const double c = coefficient_[q];
      const double* k = stage_data_[q] + d;
      s0 += c * k[0];
      s1 += c * k[1];
      s2 += c * k[2];
      s3 += c * k[3];
    }
    if (base != nullptr) {
      s0 += base[d];
      s1 += base[d + 1];
      s2 += base[d + 2];
      s3 += base[d + 3];
    }
    out[d] = s0;
    out[d + 1] = s1;
    out[d + 2] = s2;
    out[d + 3] = s3;
  }
  for (; d < n; ++d) {
    double sum = 0.0;
    for (std::size_t q = 0; q < m; ++q) sum += coefficient_[q] * stage_data_[q][d];
    out[d] = base != nullptr ? base[d] + sum : sum;
  }
}

void ExplicitRungeKutta::compute_stages(const OdeSystem& system, double t, const Vector& x,
                                        double h, const Vector* first_stage) {
  const ButcherTableau& tab = *tableau_;
  if (k_.empty() || k_.front().size() != x.size()) resize(x.size());
  const int s = tab.stages();
  // Alg 1, line 5: k_i = f(t + c_i h, x + h sum_{j<i} a_ij k_j)
  for (int i = 0; i < s; ++i) {
    const auto si = static_cast<std::size_t>(i);
    if (i == 0) {
      if (first_stage != nullptr) {
        k_[0] = *first_stage;
      } else {
        system.rhs(t, x, k_[0]);
      }
      continue;
    }
    combine(x.data(), x.size(), h, a_terms_, a_row_[si], a_row_[si + 1], stage_state_.data());
    system.rhs(t + tab.c(i) * h, stage_state_, k_[si]);
  }
}

void ExplicitRungeKutta::step(const OdeSystem& system, double t, const Vector& x, double h,
                              Vector& x_next) {
  compute_stages(system, t, x, h, nullptr);
  // Alg 1, line 7: x_{j+1} = x_j + h sum_i b_i k_i
  x_next.resize(x.size());
  combine(x.data(), x.size(), h, b_terms_, 0, b_terms_.size(), x_next.data());
}

void ExplicitRungeKutta::step_with_error(const OdeSystem& system, double t, const Vector& x,
                                         double h, Vector& x_next, Vector& error,
                                         const Vector* first_stage) {
  if (!tableau_->is_embedded()) {
    throw std::logic_error("step_with_error: tableau '" + tableau_->name + "' has no embedding");
  }
  compute_stages(system, t, x, h, first_stage);
  x_next.resize(x.size());
  combine(x.data(), x.size(), h, b_terms_, 0, b_terms_.size(), x_next.data());
  // e = h sum (b_i - b_hat_i) k_i, computed directly (not as x_next - x_hat, which would
  // lose the digits of e to cancellation).
  error.resize(x.size());
  combine(nullptr, x.size(), h, e_terms_, 0, e_terms_.size(), error.data());
}

}  // namespace simverify::simulation
