// Stepper::advance out of line: compiled where no concrete method is visible, so the loop
// calls do_step() through the vtable alone (GCC guessed one method's do_step and tested for it
// on every attempt when it could see one).
#include <simverify/simulation/stepper.hpp>

namespace simverify::simulation {

bool Stepper::advance(const OdeSystem& system, double& t, Vector& x, double t_end, double& h,
                      Vector& x_new, const AdvanceSettings& settings, ObserverRef observer) {
  return march(
      [&](double t_at, Vector& at, double size) {
        const StepAttempt attempt = step(system, t_at, at, size, x_new);
        if (attempt.accepted) at.swap(x_new);
        return attempt;
      },
      control() == StepControl::fixed, t, x, t_end, h, settings,
      [&](double t_old, double t_new) { return observer(t_old, t_new, x); });
}

}  // namespace simverify::simulation
