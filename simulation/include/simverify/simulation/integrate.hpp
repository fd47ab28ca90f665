#pragma once
// The step loop (Alg 4's retry of rejected steps, Alg 5's march over [t0, tf]) as free
// functions, in the manner of odeint's integrate_adaptive / integrate_const: the Simulator,
// the solver tests and the benchmark all drive steppers through advance(); the loop and its
// guards exist once (step_loop.hpp's march, run by Stepper::advance).
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
// (events: the Simulator cuts the step, applies the event and calls advance() again); it may
// change x only when it stops the loop.
#include <simverify/simulation/stepper.hpp>

#include <stdexcept>
#include <type_traits>
#include <utility>

namespace simverify::simulation {

// Observes nothing.
struct NoObserver {
  void operator()(double /*t_old*/, double /*t*/, const Vector& /*x*/) const {}
};

// Advances the stepper, initialized at (t, x), towards t_end; h is the fixed step of a
// fixed-step method or the next step an adaptive one tries. On return (t, x) is the last
// accepted point (t_end unless the observer stopped) and h the next step. x_new is the
// workspace of a step (sized like x). Returns false when the observer stopped the loop.
// The loop is the stepper's advance() (step_loop.hpp's march): one virtual call per advance.
template <class Observer = NoObserver>
bool advance(Stepper& stepper, const OdeSystem& system, double& t, Vector& x, double t_end,
             double& h, Vector& x_new, const AdvanceSettings& settings = {},
             Observer&& observer = {}) {
  if constexpr (std::is_same_v<std::remove_cvref_t<Observer>, NoObserver>) {
    return stepper.advance(system, t, x, t_end, h, x_new, settings, ObserverRef{});
  } else {
    return stepper.advance(system, t, x, t_end, h, x_new, settings, ObserverRef(observer));
  }
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
