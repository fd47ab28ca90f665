#pragma once
// The adaptive embedded Runge-Kutta method (Alg 4, AdaptiveRungeKuttaStepper) compiled for one
// small system and one tableau: the state size N and the tableau T (constexpr data,
// fixed_size_tableaux.hpp) are template parameters, the states are std::array<double, N>,
// and the right-hand side is the callable Rhs, which the compiler inlines into the stages. The
// virtual boundary is the whole step loop (Stepper::advance, which integrate.hpp's advance()
// and the Simulator call), or one step (do_step) for a caller that steps by hand; never an
// evaluation of f: stages, error norm, FSAL check, the copies kept for dense output and the
// dense output itself run on fixed-size arrays.
//
// Same algorithm, same tableaux (the registry's are built from the same constexpr data), same
// controller and the same arithmetic in the same order as AdaptiveRungeKuttaStepper (only the
// zero coefficients' terms, +-0, are left out), so the two give bitwise the same steps and
// states (fixed_size_runge_kutta_test). Methods whose dense output takes substeps (ode87)
// and tableaux without constexpr data have no fixed-size stepper: make_fixed_size_stepper
// returns nullptr and the caller keeps the generic one.
//
// f is Rhs, called as f(t, const std::array<double, N>& x, std::array<double, N>& dxdt); the
// OdeSystem handed to initialize() and do_step() only gives the dimension (checked) and
// counts the evaluations (OdeSystem::count_rhs_evaluations), so the statistics agree with
// the generic path's.
#include "methods/adaptive_rk_stepper.hpp"
#include "methods/hermite.hpp"
#include "methods/step_control.hpp"

#include <simverify/simulation/fixed_size_runge_kutta.hpp>
#include <simverify/simulation/fixed_size_tableaux.hpp>
#include <simverify/simulation/stepper.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simverify::simulation::detail {  // GCOVR_EXCL_BR_START (see the end of the file)

// The states are members read and written in 16-byte pairs, so each state member starts on a
// 16-byte boundary: then no pair straddles two cache lines (or two pages), wherever the heap
// puts the stepper. Before, the heap decided, and with it the speed: ode45 on Arenstorf took
// 171 or 249 us per solve at 1e-10 depending only on the heap padding before the stepper
// (GLIBC_TUNABLES=glibc.malloc.top_pad; the "slow state" of issue 19); alignas(64) on the
// class fixed which pairs straddle, but one still did, and cost 10% where its line ended a page
// (docs/solvers.md, eighth pass).
template <int N, const FixedSizeTableau& T, class Rhs>
class alignas(64) FixedSizeAdaptiveStepper final : public Stepper {
 public:
  using State = std::array<double, N>;
  static constexpr int kStages = T.stages;

  // The method's tableau must be T and its dense output take no substeps.
  FixedSizeAdaptiveStepper(const AdaptiveRungeKuttaMethod& method, Rhs f)
      : name_(method.tableau->name),
        order_(method.tableau->order),
        dense_(method.dense.extension),
        controller_(std::min(method.tableau->order, method.tableau->embedded_order),
                    method.control),
        lower_order_(std::min(method.tableau->order, method.tableau->embedded_order)),
        f_(std::move(f)) {
    if (!(FixedSizeTableau(*method.tableau) == T) || !T.embedded || method.dense.substeps ||
        (dense_ != nullptr && dense_->rows() != kStages)) {
      throw std::invalid_argument("fixed-size stepper: tableau '" + name_ +
                                  "' does not fit (stages, embedding or dense output)");
    }
  }

  [[nodiscard]] StepControl control() const override { return StepControl::adaptive; }
  [[nodiscard]] int order() const override { return order_; }

  void initialize(const OdeSystem& system, double t0, const Vector& x0,
                  const StepperSettings& settings) override {
    if (system.dimension() != N || x0.size() != N) {
      throw std::invalid_argument("fixed-size stepper '" + name_ + "': built for " +
                                  std::to_string(N) + " states, given " +
                                  std::to_string(x0.size()));
    }
    settings_ = settings;
    error_norm_.configure(settings, N);
    controller_ =
        StepSizeController(lower_order_, with_checked_safety(controller_.parameters(), settings));
    controller_.reset();
    for (auto& buffer : stages_) buffer.fill(State{});
    stage_ = x_next_ = f_old_ = f_end_ = State{};
    x_old_ = x_end_ = from(x0);
    t_old_ = t_end_ = t0;
    f_end_valid_ = false;  // after an event x0 changed: never reuse a stale derivative
    f_end_in_stages_ = false;
  }

  // Hairer-Norsett-Wanner I, Sec. II.4, as AdaptiveRungeKuttaStepper::initial_step.
  [[nodiscard]] double initial_step(const OdeSystem& system, double t0, const Vector& x0,
                                    double t_end) override {
    const double span = std::abs(t_end - t0);
    const double h_max = settings_.max_step > 0.0 ? std::min(settings_.max_step, span) : span;
    const State x = from(x0);
    if (!(t0 == t_end_ && x == x_end_ && f_end_valid_)) {
      f_(t0, x, f_end_);
      system.count_rhs_evaluations(1);
      f_end_in_stages_ = false;
      t_end_ = t0;
      x_end_ = x;
      f_end_valid_ = true;  // k_1 of the first step
    }
    const State& f0 = f_end();
    const double d0 = error_norm_.rms_scaled(x.data(), x.data(), N);
    const double d1 = error_norm_.rms_scaled(f0.data(), x.data(), N);
    const double h0 = euler_probe_step(d0, d1, h_max);
    State probe{};
    State slope{};
    for (std::size_t d = 0; d < N; ++d) probe[d] = x[d] + h0 * f0[d];
    f_(t0 + h0, probe, slope);
    system.count_rhs_evaluations(1);
    for (std::size_t d = 0; d < N; ++d) slope[d] -= f0[d];
    const double d2 = error_norm_.rms_scaled(slope.data(), x.data(), N) / h0;
    return starting_step(h0, d1, d2, lower_order_, h_max);
  }

  // Valid on the last accepted step [t, t + h] until the next accepted step.
  void interpolate(double t_query, Vector& x_out) const override {
    const double h = t_end_ - t_old_;
    x_out.resize(N);
    if (h == 0.0) {
      copy_to(x_end_, x_out);
      return;
    }
    if (dense_ == nullptr) {
      // Cubic Hermite through the same function as the generic stepper (bitwise alike).
      for (Vector* v : {&hermite_x_old_, &hermite_f_old_, &hermite_x_end_, &hermite_f_end_}) {
        v->resize(N);
      }
      copy_to(x_old_, hermite_x_old_);
      copy_to(f_old_, hermite_f_old_);
      copy_to(x_end_, hermite_x_end_);
      copy_to(f_end(), hermite_f_end_);
      hermite_interpolate(t_old_, hermite_x_old_, hermite_f_old_, t_end_, hermite_x_end_,
                          hermite_f_end_, t_query, x_out);
      return;
    }
    // x(t + theta h) = x + h sum_i k_i b_i(theta), b_i(theta) = sum_j P_ij theta^(j+1)
    const double theta = (t_query - t_old_) / h;
    const Matrix& p = *dense_;
    const auto& kept = dense_stages();
    State out = x_old_;
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
      const double weight = extension_weight(p, i, theta);
      if (weight != 0.0) {
        const double scaled = h * weight;
        const State& k = kept[static_cast<std::size_t>(i)];
        for (std::size_t d = 0; d < N; ++d) out[d] += scaled * k[d];
      }
    }
    copy_to(out, x_out);
  }

  // Alg 5 on the stepper's own state: step_loop.hpp's march with attempt() inlined, so an
  // attempt costs no virtual call and no copy between Vector and array (Arenstorf, ode45:
  // 997 k -> 946 k instructions per solve at 1e-10). x is written after every accepted step
  // (an observer reads it there, and an exception leaves it current). flatten: with attempt()
  // inlined here and in do_step(), GCC's size limits kept the stages out of line otherwise.
  [[gnu::flatten]] SIMVERIFY_FIXED_SIZE_SCALAR bool advance(const OdeSystem& system, double& t,
                                                            Vector& x, double t_end, double& h,
                                                            Vector& /*x_new*/,
                                                            const AdvanceSettings& settings,
                                                            ObserverRef observer) override {
    if (x.size() != N) x.resize(N);
    alignas(16) State state = from(x);
    return march(
        [&](double t_at, State& at, double size) {
          const StepAttempt outcome = attempt(system, t_at, at, size);
          count_attempt(outcome.accepted);
          return outcome;
        },
        false, t, state, t_end, h, settings,
        [&](double t_old, double t_new) {
          copy_pairs(state.data(), x.data());
          return observer(t_old, t_new, x);
        });
  }

 protected:
  SIMVERIFY_FIXED_SIZE_SCALAR StepAttempt do_step(const OdeSystem& system, double t,
                                                  const Vector& x_in, double h, Vector& x_new,
                                                  StepWork& /*work*/) override {
    alignas(16) State x = from(x_in);
    const StepAttempt outcome = attempt(system, t, x, h);
    if (outcome.accepted) {
      x_new.resize(N);
      copy_to(x, x_new);
    }
    return outcome;
  }

 private:
  // One attempt from (t, x); accepted, x is the new state. Everything it calls down to f is
  // always inline with the stage sums' no-tree-vectorize attribute: left to GCC's size limits
  // (flatten included), which stages inlined changed with every edit and cost up to 15%
  // (docs/solvers.md, eighth pass). The state copies move pairs by hand (copy_pairs), or the
  // FSAL check's 16-byte loads would wait on 8-byte stores (sixth pass).
  SIMVERIFY_FIXED_SIZE_INLINE StepAttempt attempt(const OdeSystem& system, double t, State& x,
                                                  double h) {
    require_step_progress(name_, t, h);
    // FSAL: the last stage of the accepted step is f at its end, which is k_1 here.
    const bool reuse = f_end_valid_ && t == t_end_ && same_state(x, x_end_);
    State* k = stages_[current_].data();
    // A local, not a member: the error estimate then stays in registers for the norm instead
    // of taking a store and a load on the critical path (err -> h -> the next stages).
    alignas(16) State error;
    fixed_size_detail::step<N, kStages, fixed_size_detail::NonZeroTerms<T>>(
        T, f_, t, x, h, k, stage_, x_next_, &error, reuse ? &f_end() : nullptr);
    system.count_rhs_evaluations(reuse ? kStages - 1 : kStages);
    const double err = max_scaled_error<N>(error.data(), x.data(), x_next_.data(),
                                           error_norm_.atol(), error_norm_.rtol(), N);
    if (!(err <= 1.0)) {  // also NaN
      if (!reuse) {       // keep k_1 = f(t, x) for the retry
        f_end_ = k[0];
        f_end_in_stages_ = false;
        t_end_ = t;
        copy_pairs(x.data(), x_end_.data());
        f_end_valid_ = true;
      }
      const double next = controller_.rejected(h, err);
      return {.accepted = false, .error_norm = err, .next_step = next};
    }
    accept(system, t, x, h, k);
    copy_pairs(x_next_.data(), x.data());
    double next = controller_.accepted(h, err);
    if (settings_.max_step > 0.0) next = std::min(next, settings_.max_step);
    return {.accepted = true, .error_norm = err, .next_step = next};
  }

  static State from(const Vector& v) {
    State s;
    copy_pairs(v.data(), s.data());
    return s;
  }
  // N doubles in 16-byte moves where they pair: what is later compared two at a time (the
  // FSAL check) is then stored two at a time, so the store buffer can forward it.
  static void copy_pairs(const double* from, double* to) {
    std::size_t d = 0;
#if defined(__SSE2__)
    for (; d + 1 < N; d += 2) _mm_storeu_pd(to + d, _mm_loadu_pd(from + d));
#endif
    for (; d < N; ++d) to[d] = from[d];
  }
  // a == b (equal as numbers: +0 == -0, NaN never), two states per SSE2 compare: the FSAL
  // check runs on every step.
  static bool same_state(const State& a, const State& b) {
#if defined(__SSE2__)
    if constexpr (N % 2 == 0) {
      __m128d equal = _mm_cmpeq_pd(_mm_loadu_pd(a.data()), _mm_loadu_pd(b.data()));
      for (std::size_t d = 2; d < N; d += 2) {
        equal =
            _mm_and_pd(equal, _mm_cmpeq_pd(_mm_loadu_pd(a.data() + d), _mm_loadu_pd(b.data() + d)));
      }
      return _mm_movemask_pd(equal) == 3;
    }
#endif
    return a == b;
  }
  static void copy_to(const State& s, Vector& v) {
    copy_pairs(s.data(), v.data());
  }
  [[nodiscard]] const std::array<State, kStages>& dense_stages() const {
    return stages_[1 - current_];
  }
  [[nodiscard]] const State& f_end() const {
    return f_end_in_stages_ ? dense_stages().back() : f_end_;
  }

  SIMVERIFY_FIXED_SIZE_INLINE void accept(const OdeSystem& system, double t, const State& x,
                                          double h, const State* k) {
    // As AdaptiveRungeKuttaStepper::accept: f at the start of the step is k_1 (only Hermite
    // keeps it apart); with a continuous extension the stages are kept by switching buffers,
    // and an FSAL last stage, f at the end, is read there.
    if (dense_ == nullptr) f_old_ = k[0];
    copy_pairs(x.data(), x_old_.data());
    t_old_ = t;
    t_end_ = t + h;
    copy_pairs(x_next_.data(), x_end_.data());
    f_end_in_stages_ = kFsal && dense_ != nullptr;
    if (!kFsal) {
      f_(t_end_, x_end_, f_end_);  // needed for Hermite, and it is the next k_1
      system.count_rhs_evaluations(1);
    } else if (!f_end_in_stages_) {
      f_end_ = k[kStages - 1];
    }
    f_end_valid_ = true;
    if (dense_ != nullptr) current_ = 1 - current_;
  }

  static constexpr bool kFsal = T.fsal;
  std::string name_;
  int order_;
  const Matrix* dense_;
  StepperSettings settings_;
  ErrorNorm error_norm_;
  StepSizeController controller_;
  int lower_order_;
  Rhs f_;

  // Two sets of stage buffers: the step writes stages_[current_], the other holds the last
  // accepted step's stages for dense output (switched on accept, not copied). For an odd N
  // every other stage starts off a 16-byte boundary (of the built-in models only Robertson,
  // stiff, N = 3).
  alignas(16) std::array<std::array<State, kStages>, 2> stages_{};
  int current_ = 0;
  alignas(16) State stage_{};
  alignas(16) State x_next_{};
  // The last accepted step [t_old_, t_end_] for dense output and FSAL.
  double t_old_ = 0.0, t_end_ = 0.0;
  alignas(16) State x_old_{};
  alignas(16) State x_end_{};
  alignas(16) State f_old_{};
  alignas(16) State f_end_{};
  bool f_end_valid_ = false;      // f_end() == f(t_end_, x_end_)
  bool f_end_in_stages_ = false;  // f_end() is the kept last stage, not f_end_
  // Workspace of the Hermite dense output (written by the const interpolate()).
  mutable Vector hermite_x_old_, hermite_f_old_, hermite_x_end_, hermite_f_end_;
};

namespace fixed_size_detail {

// The stepper of the first tableau in T... whose coefficients are the method's.
template <int N, class Rhs, const FixedSizeTableau& T, const FixedSizeTableau&... More>
std::unique_ptr<Stepper> for_tableau(const AdaptiveRungeKuttaMethod& method,
                                     const FixedSizeTableau& coefficients, Rhs&& f) {
  if (coefficients == T) {
    return std::make_unique<FixedSizeAdaptiveStepper<N, T, std::decay_t<Rhs>>>(
        method, std::forward<Rhs>(f));
  }
  if constexpr (sizeof...(More) > 0) {
    return for_tableau<N, Rhs, More...>(method, coefficients, std::forward<Rhs>(f));
  } else {
    return nullptr;
  }
}

}  // namespace fixed_size_detail

// The fixed-size stepper of the adaptive method `method` (ode23, ode45, rk43, dopri54) for a
// system of N states whose right-hand side is f(t, const std::array<double, N>& x,
// std::array<double, N>& dxdt); nullptr when the method has none (every other method, and
// ode87, whose dense output takes substeps): the caller keeps the generic stepper then.
template <int N, class Rhs>
std::unique_ptr<Stepper> make_fixed_size_stepper(const std::string& method, Rhs&& f) {
  static_assert(N >= 1 && N <= kMaxFixedSizeStates);
  const AdaptiveRungeKuttaMethod* adaptive = adaptive_runge_kutta_method(method);
  if (adaptive == nullptr || adaptive->dense.substeps ||
      adaptive->tableau->stages() > kMaxFixedSizeStages) {
    return nullptr;
  }
  namespace t = fixed_size_tableaux;
  return fixed_size_detail::for_tableau<N, Rhs, t::kBogackiShampine23, t::kRk43,
                                        t::kDormandPrince54>(
      *adaptive, FixedSizeTableau(*adaptive->tableau), std::forward<Rhs>(f));
}

// GCOVR_EXCL_BR_STOP (a line of its own, as in fixed_size_runge_kutta.hpp)
}  // namespace simverify::simulation::detail

// Coverage: gcov counts the branches of every instantiation apart (state counts 1-16 times
// three tableaux times each model's f), each with the step loop, the error norm and the
// controller inlined twice (advance and do_step): 2,992 branches, most in instantiations no
// test runs. As for fixed_size_runge_kutta.hpp, its branches are left out of the figure; its
// lines still count, and fixed_size_runge_kutta_test checks it bitwise against the generic path.
