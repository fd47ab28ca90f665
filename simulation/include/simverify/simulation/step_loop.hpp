#pragma once
// The step loop itself (Alg 4's retry of rejected steps, Alg 5's march over [t0, tf]) for any
// state type, written once: Stepper::advance runs it through the virtual step() on Vector
// states, and a stepper compiled for one small system (the fixed-size adaptive stepper) runs
// it on its own std::array state with the step inlined, with no virtual call and no copy
// between Vector and array per attempt. integrate.hpp is the public way in.
#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace simverify::simulation {

enum class Observed { proceed, stop };

struct AdvanceSettings {
  double max_step = 0.0;  // 0: unbounded
  // t is at t_end when |t_end - t| <= this; 0: 64 eps max(|t|, |t_end|).
  double time_tolerance = 0.0;
  // A run whose adaptive step keeps being rejected this often in a row has failed (the step
  // size would underflow long before in any sound model).
  int max_consecutive_rejections = 1000;
};

// The observer of accepted steps, observer(t_old, t, x) returning Observed or void, by
// reference (it must outlive the call it is passed to), so a virtual function can take any
// callable. Default: observes nothing.
class ObserverRef {
 public:
  ObserverRef() = default;
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, ObserverRef>) explicit ObserverRef(F& observer)
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(observer)))),
        call_(&call<F>) {}

  // An empty reference observes nothing and lets the loop proceed.
  Observed operator()(double t_old, double t, const Eigen::VectorXd& x) const {
    return call_ != nullptr ? call_(object_, t_old, t, x) : Observed::proceed;
  }

 private:
  template <class F>
  static Observed call(void* object, double t_old, double t, const Eigen::VectorXd& x) {
    F& observer = *static_cast<F*>(object);
    if constexpr (std::is_void_v<
                      std::invoke_result_t<F&, double, double, const Eigen::VectorXd&>>) {
      observer(t_old, t, x);
      return Observed::proceed;
    } else {
      return observer(t_old, t, x);
    }
  }

  void* object_ = nullptr;
  Observed (*call_)(void*, double, double, const Eigen::VectorXd&) = nullptr;
};

// Marches (t, x) towards t_end; h is the fixed step of a fixed-step method or the next step an
// adaptive one tries:
//   while t < t_end:
//     fixed:    t_next = origin + (n + 1) h (no accumulated round-off)
//     adaptive: t_next = t + min(h, max_step), stretched by up to 10% to reach t_end rather
//               than leave a sliver step (as MATLAB does)
//     attempt(t, x, t_next - t); rejected: h = next_step and retry
//     accepted: t = t_next, h = next_step (adaptive); accepted_step(t_old, t)
// attempt(t, State& x, step) returns a StepAttempt and, when the step is accepted, has
// replaced x by the state at t + step. accepted_step returns Observed::stop to end the loop
// (then march returns false); it may change x only then (a stepper that runs march on a state
// of its own would not see the change).
template <class State, class Attempt, class AcceptedStep>
bool march(Attempt&& attempt, bool fixed, double& t_io, State& x, double t_end, double& h_io,
           const AdvanceSettings& settings, AcceptedStep&& accepted_step) {
  // t and h live in registers; the caller's are written whenever they change and never read
  // back: read back, the next step's h would wait for a store and a load (about 7 cycles on the
  // step loop's critical path, err -> h -> the next stages).
  double t = t_io;
  double h = h_io;
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  const double max_step =
      settings.max_step > 0.0 ? settings.max_step : std::numeric_limits<double>::infinity();
  const double t_eps = settings.time_tolerance > 0.0
                           ? settings.time_tolerance
                           : 64.0 * kEps * std::max(std::abs(t), std::abs(t_end));
  const double origin = t;
  long n = 0;
  int rejections = 0;
  while (t_end - t > t_eps) {
    double t_next = 0.0;
    if (fixed) {
      t_next = origin + static_cast<double>(n + 1) * h;
      if (t_next > t_end - t_eps) t_next = t_end;
    } else {
      double step = h;
      if (step > max_step) [[unlikely]]
        step = max_step;  // a branch: no latency on h
      t_next = t + step;
      if (t_next + 0.1 * step >= t_end && t_end - t <= max_step) t_next = t_end;
    }
    const double step = t_next - t;
    if (!(step > 16.0 * kEps * std::abs(t)) || !(step > 0.0)) [[unlikely]] {
      throw std::runtime_error("integrate: step size underflow at t = " + std::to_string(t));
    }
    const auto outcome = attempt(t, x, step);
    if (!outcome.accepted) {
      if (++rejections > settings.max_consecutive_rejections) [[unlikely]] {
        throw std::runtime_error(
            "integrate: " + std::to_string(settings.max_consecutive_rejections) +
            " consecutive rejected steps at t = " + std::to_string(t));
      }
      h = h_io = outcome.next_step;
      continue;
    }
    rejections = 0;
    if (!fixed) h = h_io = outcome.next_step;
    const double t_old = t;
    t = t_io = t_next;
    ++n;
    if (accepted_step(t_old, t) == Observed::stop) return false;
  }
  return true;
}

}  // namespace simverify::simulation
