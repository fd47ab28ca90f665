#include "methods/step_control.hpp"

#include <simverify/simulation/fixed_size_runge_kutta.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
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

// The powers of the shipped controllers, tabulated at compile time: err^-(1/(q+1) - 0.75 beta)
// for lower orders q = 1..12 without and with Hairer's PI term beta = 0.04 (the explicit pairs'),
// and err^0.04 for that PI term.
constexpr int kMaxTabulatedOrder = 12;
constexpr double kTabulatedBeta = 0.04;

constexpr long double step_power(int lower_order, long double beta) {
  return -(1.0L / (lower_order + 1) - 0.75L * beta);
}

// One constant per table: each is then evaluated on its own, within the compilers' limits on
// constant evaluation (clang's default of 1,048,576 steps does not cover the 25 together).
// Index [0, 12): beta 0, [12, 24): beta 0.04.
template <std::size_t Index>
constexpr PowerTable kStepPower(step_power(static_cast<int>(Index % kMaxTabulatedOrder) + 1,
                                           Index < kMaxTabulatedOrder ? 0.0L : kTabulatedBeta));

template <std::size_t... Index>
constexpr std::array<const PowerTable*, sizeof...(Index)> step_power_tables(
    std::index_sequence<Index...> /*0..23*/) {
  return {&kStepPower<Index>...};
}

constexpr auto kStepPowers =
    step_power_tables(std::make_index_sequence<std::size_t{2} * kMaxTabulatedOrder>{});
constexpr PowerTable kMemoryPower(kTabulatedBeta);

// A compile-time table, not owned (the aliasing constructor with no owner), or a new one.
std::shared_ptr<const PowerTable> table_of(const PowerTable* tabulated, long double power) {
  if (tabulated != nullptr) return {std::shared_ptr<const PowerTable>(), tabulated};
  return std::make_shared<const PowerTable>(power);
}

std::shared_ptr<const PowerTable> step_power_table(int lower_order, double beta) {
  const bool tabulated_order = lower_order >= 1 && lower_order <= kMaxTabulatedOrder;
  const auto index = static_cast<std::size_t>(lower_order - 1);
  const PowerTable* tabulated = nullptr;
  if (tabulated_order && beta == 0.0) tabulated = kStepPowers[index];
  if (tabulated_order && beta == kTabulatedBeta) {
    tabulated = kStepPowers[index + kMaxTabulatedOrder];
  }
  return table_of(tabulated, step_power(lower_order, beta));
}

std::shared_ptr<const PowerTable> memory_power_table(double beta) {
  if (beta == 0.0) return nullptr;  // err^0 == 1: the I controller
  return table_of(beta == kTabulatedBeta ? &kMemoryPower : nullptr, beta);
}

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

StepSizeController::StepSizeController(int lower_order, StepControlParameters parameters)
    : parameters_(parameters),
      step_power_(step_power_table(lower_order, parameters.beta)),
      memory_power_(memory_power_table(parameters.beta)),
      hold_from_(parameters.hold > 0.0 ? parameters.hold
                                       : std::numeric_limits<double>::infinity()) {
  reset();
}

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

StepControlParameters with_checked_safety(StepControlParameters parameters,
                                          const StepperSettings& settings) {
  if (!(settings.safety > 0.0 && settings.safety < 1.0)) {
    throw std::invalid_argument("adaptive stepper: safety factor must lie in (0, 1) (Thm 3.35)");
  }
  return with_settings(parameters, settings);
}

void StepSizeController::reset() {
  remember_accepted(kMinPreviousError);  // no previous step: Hairer's facold = 1e-4
}

double StepSizeController::rejected(double h, double error_norm) {
  const auto& p = parameters_;
  // h eta err^-exponent as accepted() computes it (err > 1 here; inf gives 0, NaN stays NaN),
  // within h [min_shrink, 1] (also NaN: shrink as hard as allowed).
  const double next = step_power_->scaled(h * p.safety, error_norm);
  last_rejected_ = true;
  return std::min(std::max(h * p.min_shrink, next), h);
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
