#pragma once
// Step size control of the adaptive embedded methods (Thm 3.35, Alg 4), split from the
// stepper so the error test and the controller can be read and tested on their own.
#include <simverify/simulation/stepper.hpp>

#include "methods/power_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simverify::simulation::detail {

// The error test of the Simulink solver list, eq. (3), err_i <= max(rtol |x_i|, atol_i), as one
// number:
//   max_i |e_i| / max(rtol max(|x_i|, |x_new_i|), atol_i)  <= 1  accepts the step.
// The max norm (not the RMS norm of Hairer's codes) because the Simulink solver list rejects a step
// as soon as one state exceeds its own bound; the RMS norm would let one badly resolved state hide
// behind well resolved ones. max(|x_i|, |x_new_i|) (as MATLAB ode45) keeps the bound from
// collapsing when a state passes through zero within the step.
class ErrorNorm {
 public:
  // Checks and stores the tolerances for systems of this dimension; atol has one entry or one
  // per state. Throws std::invalid_argument naming what was expected.
  void configure(const StepperSettings& settings, Eigen::Index dimension);

  [[nodiscard]] double operator()(const Vector& error, const Vector& x, const Vector& x_new) const;

  // The weights atol_i + rtol |x_i| of the Hairer-Norsett-Wanner starting step heuristic.
  [[nodiscard]] double rms_scaled(const Vector& v, const Vector& x) const {
    return rms_scaled(v.data(), x.data(), v.size());
  }
  [[nodiscard]] double rms_scaled(const double* v, const double* x, Eigen::Index n) const;

  [[nodiscard]] double rtol() const { return rtol_; }
  [[nodiscard]] const double* atol() const { return atol_.data(); }

  // max_i |e_i| / max(rtol max(|a_i|, |b_i|), atol_i) over n states (n unused by the
  // instantiations for a fixed count).
  using Function = double (*)(const double* e, const double* a, const double* b, const double* atol,
                              double rtol, Eigen::Index n);

 private:
  double rtol_ = 0.0;
  Vector atol_;
  // For systems of up to kMaxFixedSizeStates states a loop over a compile-time count, as the
  // fixed-size stages (unrolled: about half the instructions on 4 states); the same
  // arithmetic in the same order, so the same result bitwise.
  Function norm_ = nullptr;
};

// The error test's norm over Count states, or over n when Count is 0. One branch-free pass:
// it sits on the critical path of every step (err -> next h -> every stage of the next step).
// With SSE2 and a fixed count, two states share a register: the same operations per state,
// and max_pd(y, x) is std::max(x, y) bitwise (also for NaN), so the same norm bitwise.
// GCOVR_EXCL_BR_START: inlined into every fixed-size stepper instantiation, whose copies gcov
// counts apart (2,840 branches); step_control_test checks the norm and the controller.
template <int Count>
[[gnu::always_inline]] inline double max_scaled_error(const double* e, const double* a,
                                                      const double* b, const double* atol,
                                                      double rtol, Eigen::Index n) {
  const Eigen::Index count = Count > 0 ? Count : n;
  double norm = 0.0;
  bool nan = false;
  Eigen::Index i = 0;
#if defined(__SSE2__)
  if constexpr (Count >= 2) {
    const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffff));
    const __m128d scale = _mm_set1_pd(rtol);
    __m128d pair_norm = _mm_setzero_pd();
    __m128d pair_nan = _mm_setzero_pd();
    for (; i + 1 < count; i += 2) {
      const __m128d size = _mm_max_pd(_mm_and_pd(_mm_loadu_pd(b + i), magnitude),
                                      _mm_and_pd(_mm_loadu_pd(a + i), magnitude));
      const __m128d bound = _mm_max_pd(_mm_loadu_pd(atol + i), _mm_mul_pd(scale, size));
      // 1 / bound does not wait for e: x_new is known a stage (an f evaluation) before e.
      const __m128d r = _mm_mul_pd(_mm_and_pd(_mm_loadu_pd(e + i), magnitude),
                                   _mm_div_pd(_mm_set1_pd(1.0), bound));
      pair_nan = _mm_or_pd(pair_nan, _mm_cmpunord_pd(r, r));
      pair_norm = _mm_max_pd(r, pair_norm);  // r > norm ? r : norm
    }
    nan = _mm_movemask_pd(pair_nan) != 0;
    const double low = _mm_cvtsd_f64(pair_norm);
    const double high = _mm_cvtsd_f64(_mm_unpackhi_pd(pair_norm, pair_norm));
    norm = high > low ? high : low;  // the max of exact values: order does not matter
  }
#endif
  for (; i < count; ++i) {
    const double bound = std::max(rtol * std::max(std::abs(a[i]), std::abs(b[i])), atol[i]);
    const double r = std::abs(e[i]) * (1.0 / bound);
    // A NaN error (f returned NaN) must fail the test; a max alone would drop it.
    nan |= std::isnan(r);
    norm = r > norm ? r : norm;
  }
  return nan ? std::numeric_limits<double>::quiet_NaN() : norm;
}

struct StepControlParameters {
  double safety = 0.9;      // eta of Thm 3.35
  double max_growth = 5.0;  // h_new <= 5 h (Remark 3.36: steps may grow, but not wildly)
  double min_shrink = 0.2;  // h_new >= h / 5 after a rejection
  // Weight of the previous error in the PI controller of Gustafsson (1991), as in Hairer's
  // DOPRI5 (beta = 0.04 for a 5(4) pair). 0 gives the pure I controller of Thm 3.35.
  double beta = 0.0;
  // After an accepted step whose err lies in [hold, 1] the next step keeps h (0: never). As
  // Boost.Odeint's controller does for [0.5, 1]: h then does not wait for err, so the next
  // step's stages can start while this step's error is still being computed (the processor
  // predicts the branch); the PI formula sets h on every other step.
  double hold = 0.0;
};

// parameters with the run's settings applied: eta and the hold band. Throws
// std::invalid_argument unless 0 <= step_hold <= 1.
[[nodiscard]] StepControlParameters with_settings(StepControlParameters parameters,
                                                  const StepperSettings& settings);
// with_settings for the explicit adaptive pairs (generic, fixed-size, Nystrom), which also
// require eta in (0, 1) (Thm 3.35); throws std::invalid_argument otherwise.
[[nodiscard]] StepControlParameters with_checked_safety(StepControlParameters parameters,
                                                        const StepperSettings& settings);

// Thm 3.35 with PI extension: the next step h_new = factor h from the scaled error norm err
// (1 == tolerance) of a method whose lower order is q:
//   accepted:  eta * err^-(1/(q+1) - 0.75 beta) * err_prev^beta, clamped to
//              [min_shrink, max_growth], and at most 1 right after a rejection;
//   rejected:  eta * err^-(1/(q+1) - 0.75 beta), at least min_shrink (pure I: the previous
//              error says nothing about a step that failed).
class StepSizeController {
 public:
  StepSizeController(int lower_order, StepControlParameters parameters);

  void reset();
  // Returns the next attempt's step after a step of size h and records the outcome.
  // accepted() is always inline (also into the fixed-size steppers' step loop and do_step): it
  // runs after every step, rejected() rarely.
  [[gnu::always_inline]] double accepted(double h, double error_norm) {
    const auto& p = parameters_;
    if (error_norm >= hold_from_) {  // StepControlParameters::hold; never for NaN
      remember_accepted(error_norm);
      return h;
    }
    // Thm 3.35: h_new = eta (1/err)^(1/(q+1)) h; the PI term err_prev^beta damps oscillation.
    // h gain_ = h eta err_prev^beta is known before err, so err -> h_new is one table power
    // (power_table.hpp) and the clamp: this is on the critical path of the step loop
    // (err -> h -> every stage of the next step).
    // Clamped to h [min_shrink, max_growth]: err == 0 (the step was exact: inf) to the upper
    // bound, a NaN to the lower one. Branches, not max and min: predicted (the clamps rarely
    // bind), they are not on that path (docs/solvers.md, tenth pass).
    double next = step_power_->scaled(h * gain_, error_norm);
    if (!(next > h * p.min_shrink)) [[unlikely]]
      next = h * p.min_shrink;
    if (next > h * p.max_growth) [[unlikely]]
      next = h * p.max_growth;
    // No growth right after a rejection (Hairer's DOPRI5): the rejected size was too large.
    if (last_rejected_) next = std::min(next, h);
    remember_accepted(error_norm);
    return next;
  }
  // GCOVR_EXCL_BR_STOP
  double rejected(double h, double error_norm);

  [[nodiscard]] const StepControlParameters& parameters() const { return parameters_; }

 private:
  // The accepted step's err for the next step's PI term, as eta err^beta (err >= 1e-4, Hairer's
  // facold floor).
  [[gnu::always_inline]] void remember_accepted(double error_norm) {
    gain_ = memory_power_
                ? memory_power_->scaled(parameters_.safety, std::max(error_norm, kMinPreviousError))
                : parameters_.safety;
    last_rejected_ = false;
  }

  static constexpr double kMinPreviousError = 1e-4;
  StepControlParameters parameters_;
  // err^-(1/(q+1) - 0.75 beta) and err^beta (null for beta == 0): the shipped controllers'
  // tables are built at compile time and not owned (step_control.cpp).
  std::shared_ptr<const PowerTable> step_power_;
  std::shared_ptr<const PowerTable> memory_power_;
  double hold_from_;   // hold, or +inf without one
  double gain_ = 0.0;  // eta err_prev^beta
  bool last_rejected_ = false;
};

// Throws the std::runtime_error of require_step_progress (out of line: the test is on every
// step, the message almost never).
[[noreturn]] void throw_step_underflow(const std::string& method, double t, double h);

// A step too small to change t cannot make progress: throws std::runtime_error naming the
// method instead of letting the step loop run forever. Inline: a call per attempted step
// cost ode45 about 1% of its instructions.
inline void require_step_progress(const std::string& method, double t, double h) {
  const double h_min = 16.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t), 1.0);
  if (!(h > h_min)) [[unlikely]] {
    throw_step_underflow(method, t, h);
  }
}

// The starting step of Hairer-Norsett-Wanner II.4 for an adaptive method whose lower order is
// q, in the two halves around the one explicit Euler step it probes f with:
//   euler_probe_step: h0 = 0.01 d0 / d1 from d0 = ||x0|| and d1 = ||f(t0, x0)||;
//   starting_step:    h1 with max(d1, d2) h1^(q+1) = 0.01, where
//                     d2 = ||f(t0 + h0, x0 + h0 f0) - f0|| / h0 estimates ||x''||;
// norms as ErrorNorm::rms_scaled, both results at most h_max (and h1 at most 100 h0).
[[nodiscard]] double euler_probe_step(double d0, double d1, double h_max);
[[nodiscard]] double starting_step(double h0, double d1, double d2, int lower_order, double h_max);

}  // namespace simverify::simulation::detail
