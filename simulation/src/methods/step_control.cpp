#include "methods/step_control.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace simverify::simulation::detail {
namespace {
const double kLogMinError = std::log(1e-4);  // Hairer's facold floor
}  // namespace

void ErrorNorm::configure(const StepperSettings& settings, Eigen::Index dimension) {
  if (!(settings.rtol >= 0.0) || !std::isfinite(settings.rtol)) {
    throw std::invalid_argument("step control: rtol must be a finite number >= 0, got " +
                                std::to_string(settings.rtol));
  }
  const auto n_atol = static_cast<Eigen::Index>(settings.atol.size());
  if (n_atol != 1 && n_atol != dimension) {
    throw std::invalid_argument("step control: atol must have 1 entry or one per state (" +
                                std::to_string(dimension) + "), got " + std::to_string(n_atol));
  }
  rtol_ = settings.rtol;
  atol_.resize(dimension);
  for (Eigen::Index i = 0; i < dimension; ++i) {
    const double a = settings.atol[static_cast<std::size_t>(n_atol == 1 ? 0 : i)];
    // atol > 0 keeps the bound of seed 001 eq. (3) positive when a state passes through zero.
    if (!(a > 0.0) || !std::isfinite(a)) {
      throw std::invalid_argument("step control: atol must be finite and > 0, got " +
                                  std::to_string(a) + " for state " + std::to_string(i));
    }
    atol_(i) = a;
  }
}

double ErrorNorm::operator()(const Vector& error, const Vector& x, const Vector& x_new) const {
  double norm = 0.0;
  for (Eigen::Index i = 0; i < error.size(); ++i) {
    const double bound = std::max(rtol_ * std::max(std::abs(x(i)), std::abs(x_new(i))), atol_(i));
    const double r = std::abs(error(i)) / bound;
    // A NaN error (f returned NaN) must fail the test; std::max would drop it.
    if (std::isnan(r)) return r;
    norm = std::max(norm, r);
  }
  return norm;
}

double ErrorNorm::rms_scaled(const Vector& v, const Vector& x) const {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const double r = v(i) / (atol_(i) + rtol_ * std::abs(x(i)));
    sum += r * r;
  }
  return v.size() == 0 ? 0.0 : std::sqrt(sum / static_cast<double>(v.size()));
}

StepSizeController::StepSizeController(int lower_order, StepControlParameters parameters)
    : parameters_(parameters), exponent_(1.0 / (lower_order + 1.0) - 0.75 * parameters.beta) {}

void StepSizeController::reset() {
  previous_error_beta_ = parameters_.beta != 0.0 ? std::pow(1e-4, parameters_.beta) : 1.0;
  last_rejected_ = false;
}

double StepSizeController::accepted(double error_norm) {
  const auto& p = parameters_;
  // Thm 3.35: h_new = eta (1/err)^(1/(q+1)) h; the PI term err_prev^beta damps oscillation.
  // One log for both powers (err^-exponent now, err^beta for the next step): std::pow twice
  // per step was a tenth of an ode45 step on small systems.
  const double log_error = std::log(error_norm);  // -inf for err == 0
  double factor = p.safety * std::exp(-exponent_ * log_error) * previous_error_beta_;
  if (!std::isfinite(factor)) factor = p.max_growth;  // err == 0: the step was exact
  factor = std::clamp(factor, p.min_shrink, p.max_growth);
  // No growth right after a rejection (Hairer's DOPRI5): the rejected size was too large.
  if (last_rejected_) factor = std::min(factor, 1.0);
  previous_error_beta_ = p.beta != 0.0 ? std::exp(p.beta * std::max(log_error, kLogMinError)) : 1.0;
  last_rejected_ = false;
  return factor;
}

double StepSizeController::rejected(double error_norm) {
  const auto& p = parameters_;
  double factor = p.safety * std::pow(error_norm, -exponent_);
  if (!(factor >= p.min_shrink)) factor = p.min_shrink;  // also NaN: shrink as hard as allowed
  factor = std::min(factor, 1.0);
  last_rejected_ = true;
  return factor;
}

}  // namespace simverify::simulation::detail
