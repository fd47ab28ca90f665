#include "methods/step_control.hpp"

#include <simverify/simulation/fixed_size_runge_kutta.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace simverify::simulation::detail {
namespace {
template <std::size_t... Count>
constexpr std::array<ErrorNorm::Function, sizeof...(Count)> norm_functions(
    std::index_sequence<Count...> /*0..kMaxFixedSizeStates*/) {
  return {&max_scaled_error<static_cast<int>(Count)>...};
}

// [0] is the run-time count, [n] the fixed count n.
constexpr auto kNormFunctions = norm_functions(std::make_index_sequence<kMaxFixedSizeStates + 1>{});

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
    // atol > 0 keeps the bound of the Simulink solver list's eq. (3) positive when a state passes
    // through zero.
    if (!(a > 0.0) || !std::isfinite(a)) {
      throw std::invalid_argument("step control: atol must be finite and > 0, got " +
                                  std::to_string(a) + " for state " + std::to_string(i));
    }
    atol_(i) = a;
  }
  norm_ =
      kNormFunctions[dimension <= kMaxFixedSizeStates ? static_cast<std::size_t>(dimension) : 0];
}

double ErrorNorm::operator()(const Vector& error, const Vector& x, const Vector& x_new) const {
  return norm_(error.data(), x.data(), x_new.data(), atol_.data(), rtol_, error.size());
}

double ErrorNorm::rms_scaled(const double* v, const double* x, Eigen::Index n) const {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double r = v[i] / (atol_(i) + rtol_ * std::abs(x[i]));
    sum += r * r;
  }
  return n == 0 ? 0.0 : std::sqrt(sum / static_cast<double>(n));
}

const double StepSizeController::kLogMinError = std::log(1e-4);

StepSizeController::StepSizeController(int lower_order, StepControlParameters parameters)
    : parameters_(parameters),
      exponent_(1.0 / (lower_order + 1.0) - 0.75 * parameters.beta),
      hold_from_(parameters.hold > 0.0 ? parameters.hold
                                       : std::numeric_limits<double>::infinity()) {}

StepControlParameters with_settings(StepControlParameters parameters,
                                    const StepperSettings& settings) {
  if (!(settings.step_hold >= 0.0 && settings.step_hold <= 1.0)) {
    throw std::invalid_argument("adaptive stepper: step_hold must lie in [0, 1] (0: off), got " +
                                std::to_string(settings.step_hold));
  }
  parameters.safety = settings.safety;
  parameters.hold = settings.step_hold;
  return parameters;
}

void StepSizeController::reset() {
  previous_log_error_beta_ = parameters_.beta * kLogMinError;
  last_rejected_ = false;
}

double StepSizeController::rejected(double error_norm) {
  const auto& p = parameters_;
  // err^-exponent as accepted() computes it (err > 1 here; inf gives 0, NaN stays NaN).
  const LogParts log_parts = fast_log_parts(error_norm);
  double factor = fast_scaled_exp(p.safety, -exponent_ * log_parts.hi, -exponent_ * log_parts.lo);
  if (!(factor >= p.min_shrink)) factor = p.min_shrink;  // also NaN: shrink as hard as allowed
  factor = std::min(factor, 1.0);
  last_rejected_ = true;
  return factor;
}

void throw_step_underflow(const std::string& method, double t, double h) {
  throw std::runtime_error("adaptive stepper '" + method + "': step size underflow (h = " +
                           std::to_string(h) + ") at t = " + std::to_string(t) +
                           "; the tolerances cannot be met (stiff or singular problem?)");
}

double euler_probe_step(double d0, double d1, double h_max) {
  const double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
  return std::min(h0, h_max);
}

double starting_step(double h0, double d1, double d2, int lower_order, double h_max) {
  const double d12 = std::max(d1, d2);
  const double h1 =
      d12 <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / d12, 1.0 / (lower_order + 1.0));
  return std::min({100.0 * h0, h1, h_max});
}

}  // namespace simverify::simulation::detail
