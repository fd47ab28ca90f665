#include <simverify/simulation/explicit_runge_kutta.hpp>

#include <stdexcept>

namespace simverify::simulation {

ExplicitRungeKutta::ExplicitRungeKutta(const ButcherTableau& tableau) : tableau_(&tableau) {
  if (!tableau.is_explicit()) {
    throw std::invalid_argument("ExplicitRungeKutta: tableau '" + tableau.name +
                                "' is not explicit (A must be strictly lower triangular)");
  }
}

void ExplicitRungeKutta::resize(Eigen::Index dimension) {
  k_.assign(static_cast<std::size_t>(tableau_->stages()), Vector::Zero(dimension));
  stage_state_.resize(dimension);
}

void ExplicitRungeKutta::compute_stages(const OdeSystem& system, double t, const Vector& x,
                                        double h, const Vector* first_stage) {
  const ButcherTableau& tab = *tableau_;
  if (k_.empty() || k_.front().size() != x.size()) resize(x.size());
  const int s = tab.stages();
  // Alg 1, line 5: k_i = f(t + c_i h, x + h sum_{j<i} a_ij k_j)
  for (int i = 0; i < s; ++i) {
    const auto si = static_cast<std::size_t>(i);
    if (i == 0 && first_stage != nullptr) {
      k_[0] = *first_stage;
      continue;
    }
    stage_state_ = x;
    for (int j = 0; j < i; ++j) {
      const double aij = tab.a(i, j);
      if (aij != 0.0) stage_state_.noalias() += (h * aij) * k_[static_cast<std::size_t>(j)];
    }
    system.rhs(t + tab.c(i) * h, stage_state_, k_[si]);
  }
}

void ExplicitRungeKutta::step(const OdeSystem& system, double t, const Vector& x, double h,
                              Vector& x_next) {
  compute_stages(system, t, x, h, nullptr);
  // Alg 1, line 7: x_{j+1} = x_j + h sum_i b_i k_i
  x_next = x;
  for (int i = 0; i < tableau_->stages(); ++i) {
    const double bi = tableau_->b(i);
    if (bi != 0.0) x_next.noalias() += (h * bi) * k_[static_cast<std::size_t>(i)];
  }
}

void ExplicitRungeKutta::step_with_error(const OdeSystem& system, double t, const Vector& x,
                                         double h, Vector& x_next, Vector& error,
                                         const Vector* first_stage) {
  if (!tableau_->is_embedded()) {
    throw std::logic_error("step_with_error: tableau '" + tableau_->name + "' has no embedding");
  }
  compute_stages(system, t, x, h, first_stage);
  const Vector& b_hat = *tableau_->b_hat;
  x_next = x;
  error.setZero(x.size());
  for (int i = 0; i < tableau_->stages(); ++i) {
    const auto& ki = k_[static_cast<std::size_t>(i)];
    x_next.noalias() += (h * tableau_->b(i)) * ki;
    // Thm 3.34: the difference of the two solutions estimates the local error.
    error.noalias() += (h * (tableau_->b(i) - b_hat(i))) * ki;
  }
}

}  // namespace simverify::simulation
