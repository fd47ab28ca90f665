#pragma once
// The step loop (Alg 4's retry of rejected steps, Alg 5's march over [t0, tf]) as free
// functions, in the manner of odeint's integrate_adaptive / integrate_const: the Simulator,
// the solver tests and the benchmark all drive steppers through advance(), so the loop and
// its guards exist once.
//
//   advance(stepper, system, t, x, t_end, h, x_new, settings, observer)
//     while t < t_end:
//       fixed-step method: t_next = origin + (n + 1) h (no accumulated round-off)
//       adaptive method:   t_next = t + min(h, max_step), stretched by up to 10% to reach
//                          t_end rather than leave a sliver step (as MATLAB does)
//       stepper.step(t, x, t_next - t); rejected: h = next_step and retry
//       accepted: t = t_next, x = x_new, h = next_step (adaptive); observer(t_old, t, x)
//   integrate(stepper, system, t0, x0, t_end, h, stepper_settings, observer)
//     initialize the stepper, h = 0 asks it for the first step, then advance().
//
// The observer is called after every accepted step while the stepper's dense output covers
// [t_old, t] (stepper.interpolate); it may return Observed::stop to end the loop there
// (events: the Simulator cuts the step, applies the event and calls advance() again).
#include <simverify/simulation/stepper.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace simverify::simulation {

enum class Observed { proceed, stop };

// Observes nothing.
struct NoObserver {
  void operator()(double /*t_old*/, double /*t*/, const Vector& /*x*/) const {}
};

struct AdvanceSettings {
  double max_step = 0.0;  // 0: unbounded
  // t is at t_end when |t_end - t| <= this; 0: 64 eps max(|t|, |t_end|).
  double time_tolerance = 0.0;
  // A run whose adaptive step keeps being rejected this often in a row has failed (the step
  // size would underflow long before in any sound model).
  int max_consecutive_rejections = 1000;
};

// Advances the stepper, initialized at (t, x), towards t_end; h is the fixed step of a
// fixed-step method or the next step an adaptive one tries. On return (t, x) is the last
// accepted point (t_end unless the observer stopped) and h the next step. x_new is the
// workspace of a step (sized like x). Returns false when the observer stopped the loop.
template <class Observer = NoObserver>
bool advance(Stepper& stepper, const OdeSystem& system, double& t, Vector& x, double t_end,
             double& h, Vector& x_new, const AdvanceSettings& settings = {},
             Observer&& observer = {}) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  const bool fixed = stepper.control() == StepControl::fixed;
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
      const double step = std::min(h, max_step);
      t_next = t + step;
      if (t_next + 0.1 * step >= t_end && t_end - t <= max_step) t_next = t_end;
    }
    const double step = t_next - t;
    if (!(step > 16.0 * kEps * std::abs(t)) || !(step > 0.0)) {
      throw std::runtime_error("integrate: step size underflow at t = " + std::to_string(t));
    }
    const StepAttempt attempt = stepper.step(system, t, x, step, x_new);
    if (!attempt.accepted) {
      if (++rejections > settings.max_consecutive_rejections) {
        throw std::runtime_error(
            "integrate: " + std::to_string(settings.max_consecutive_rejections) +
            " consecutive rejected steps at t = " + std::to_string(t));
      }
      h = attempt.next_step;
      continue;
    }
    rejections = 0;
    if (!fixed) h = attempt.next_step;
    const double t_old = t;
    t = t_next;
    x.swap(x_new);
    ++n;
    if constexpr (std::is_void_v<std::invoke_result_t<Observer&, double, double, Vector&>>) {
      observer(t_old, t, x);
    } else {
      if (observer(t_old, t, x) == Observed::stop) return false;
    }
  }
  return true;
}

struct IntegrateResult {
  double t = 0.0;  // where the run ended: t_end unless the observer stopped it
  Vector x;
  double next_step = 0.0;  // the step an adaptive method would try next
};

// Integrates from (t0, x0) to t_end: initializes the stepper, takes h as the fixed step (or
// the first step of an adaptive method; 0 asks the stepper), max_step from the settings.
template <class Observer = NoObserver>
IntegrateResult integrate(Stepper& stepper, const OdeSystem& system, double t0, Vector x0,
                          double t_end, double h, const StepperSettings& settings,
                          Observer&& observer = {}) {
  stepper.initialize(system, t0, x0, settings);
  if (!(h > 0.0)) {
    if (stepper.control() == StepControl::fixed) {
      throw std::invalid_argument("integrate: a fixed-step method needs a step size h > 0");
    }
    h = stepper.initial_step(system, t0, x0, t_end);
  }
  IntegrateResult result{.t = t0, .x = std::move(x0), .next_step = h};
  Vector x_new(result.x.size());
  advance(stepper, system, result.t, result.x, t_end, result.next_step, x_new,
          AdvanceSettings{.max_step = settings.max_step}, std::forward<Observer>(observer));
  return result;
}

}  // namespace simverify::simulation
