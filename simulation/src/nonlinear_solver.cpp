#include <simverify/simulation/nonlinear_solver.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace simverify::simulation {
namespace {

constexpr double kUround = std::numeric_limits<double>::epsilon();
constexpr double kKappa = 0.01;
constexpr double kOrderConstant = 1e-6;
constexpr double kFloorFactor = 100.0 * kUround;

}  // namespace

void stage_thresholds(const Vector& x, double h, int order, const StepperSettings& settings,
                      Vector& thresholds) {
  const double h_term = kOrderConstant * std::pow(std::abs(h), order + 1);
  const bool per_state = settings.atol.size() == static_cast<std::size_t>(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double atol = per_state ? settings.atol[static_cast<std::size_t>(i)]
                                  : (settings.atol.empty() ? 0.0 : settings.atol.front());
    const double scale = 1.0 + std::abs(x(i));
    const double tol_term = kKappa * (atol + settings.rtol * std::abs(x(i)));
    thresholds(i) = std::max(std::min(tol_term, h_term * scale), kFloorFactor * scale);
  }
}

double threshold_norm(const Vector& increment, const Vector& thresholds) {
  const Eigen::Index n = thresholds.size();
  double norm = 0.0;
  for (Eigen::Index i = 0; i < increment.size(); ++i) {
    norm = std::max(norm, std::abs(increment(i)) / thresholds(i % n));
  }
  return norm;
}

void ConvergenceMonitor::start() {
  iteration_ = 0;
  growth_ = 0;
  previous_norm_ = 0.0;
  theta_ = 0.0;
}

IterationStatus ConvergenceMonitor::update(double increment_norm) {
  ++iteration_;
  if (!std::isfinite(increment_norm)) return IterationStatus::diverged;
  double eta = 0.0;
  if (iteration_ == 1) {
    // No rate yet: reuse the last solve's eta, damped towards 1 (Hairer-Wanner IV.8).
    eta = std::pow(std::max(eta_, kUround), 0.8);
  } else {
    theta_ = previous_norm_ > 0.0 ? increment_norm / previous_norm_ : 0.0;
    if (theta_ >= 1.0) {
      // Round-off stagnation below the threshold is convergence, not divergence.
      if (increment_norm <= 1.0) return IterationStatus::converged;
      if (++growth_ > allowed_growth_) return IterationStatus::diverged;
      eta = 1.0;
    } else {
      growth_ = 0;
      eta = theta_ / (1.0 - theta_);
      eta_ = eta;
    }
  }
  previous_norm_ = increment_norm;
  if (eta * increment_norm <= 1.0 || increment_norm == 0.0) return IterationStatus::converged;
  if (iteration_ >= max_iterations_) return IterationStatus::diverged;
  return IterationStatus::iterating;
}

void evaluate_jacobian(const OdeSystem& system, double t, const Vector& x, const Vector& fx,
                       Vector& work_x, Vector& work_f, Matrix& jacobian) {
  if (system.has_jacobian()) {
    system.jacobian(t, x, jacobian);
    return;
  }
  const double root_uround = std::sqrt(kUround);
  work_x = x;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const double delta = root_uround * std::max(std::abs(x(j)), 1.0);
    work_x(j) = x(j) + delta;
    system.rhs(t, work_x, work_f);
    jacobian.col(j) = (work_f - fx) / delta;
    work_x(j) = x(j);
  }
}

std::string contraction_message(double t, double h, double factor,
                                const std::string& how_estimated) {
  std::ostringstream out;
  out << "fixed-point iteration (Alg 3) does not contract at t = " << t << " with h = " << h << ": "
      << how_estimated << " = " << factor
      << " >= 1 (Thm 3.31 needs h L ||A|| < 1). The step size is too large for fixed-point "
         "iteration; use `nonlinear: newton` or a smaller h";
  return out.str();
}

}  // namespace simverify::simulation
