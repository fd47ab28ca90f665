#pragma once
// One-step methods behind one interface (Alg 5): explicit, implicit and adaptive methods all
// attempt a step from (t, x) and report whether it was accepted. The loop is step_loop.hpp's
// march, run by advance() (integrate.hpp is the public way in); steppers own only their
// workspace, allocated in initialize(), so the step loop does not allocate.
//
// As Drake's integrators do, the public step() is not virtual: it calls the method's
// do_step() and counts accepted and rejected attempts, so every method counts the same way;
// a method only adds the work it did (LU factorizations, iterations, Jacobians) to the totals
// handed to it.
#include <simverify/simulation/ode_system.hpp>
#include <simverify/simulation/step_loop.hpp>

#include <string>
#include <vector>

namespace simverify::simulation {

enum class StepControl { fixed, adaptive };
enum class NonlinearSolver { fixed_point, newton };

struct StepperSettings {
  double rtol = 1e-3;  // Simulink solver list, eq. (3): err_i <= max(rtol |x_i|, atol_i)
  std::vector<double> atol{1e-6};  // one value for all states, or one per state
  double initial_step = 0.0;       // 0: chosen automatically
  double max_step = 0.0;           // 0: unbounded (the interval length)
  double safety = 0.9;             // eta of Thm 3.35
  // Adaptive Runge-Kutta methods: keep h after an accepted step whose error norm lies in
  // [step_hold, 1] (Boost.Odeint keeps it for [0.5, 1]); 0, the default: Thm 3.35's PI
  // controller on every step. Faster per step, a few more steps (docs/solvers.md).
  double step_hold = 0.0;
  NonlinearSolver nonlinear = NonlinearSolver::newton;
  // ode14x (Simulink solver list): order of the extrapolation and Newton iterations per implicit
  // Euler substep (1: linearly implicit Euler). Simulink's defaults.
  int extrapolation_order = 4;
  int newton_iterations = 1;
};

struct StepAttempt {
  bool accepted = true;
  double error_norm = 0.0;  // scaled error estimate (<= 1 means accepted); 0 for fixed-step
  double next_step = 0.0;   // proposed size of the next step (adaptive methods)
};

// What a method's attempts cost beyond evaluations of f (which the OdeSystem counts). do_step()
// adds its attempt's work to the running totals it is handed (methods only add, never read or
// reset), so the counting costs nothing on methods that report none: no per-step zeroing
// and summing on the explicit methods' critical path.
struct StepWork {
  long lu_factorizations = 0;
  long nonlinear_iterations = 0;
  long jacobian_evaluations = 0;  // analytic or finite-difference df/dx formed by the method
};

// Totals since the stepper was made (initialize() does not reset them): the work the method
// reported and the outcomes step() counted.
struct StepperStatistics : StepWork {
  long accepted_steps = 0;
  long rejected_steps = 0;
};

class Stepper {
 public:
  virtual ~Stepper() = default;

  [[nodiscard]] virtual StepControl control() const = 0;
  [[nodiscard]] virtual int order() const = 0;

  // Called once per run (and again after an event changed x); sizes the workspace.
  virtual void initialize(const OdeSystem& system, double t0, const Vector& x0,
                          const StepperSettings& settings) = 0;

  // First step size when the user gave none (adaptive methods estimate it from f, Hairer-
  // Norsett-Wanner II.4; fixed-step methods are always given h).
  [[nodiscard]] virtual double initial_step(const OdeSystem& /*system*/, double t0,
                                            const Vector& /*x0*/, double t_end) {
    return (t_end - t0) / 100.0;
  }

  // Attempts a step of size h from (t, x) into x_new (which must not alias x) and counts it.
  StepAttempt step(const OdeSystem& system, double t, const Vector& x, double h, Vector& x_new) {
    const StepAttempt attempt = do_step(system, t, x, h, x_new, statistics_);
    count_attempt(attempt.accepted);
    return attempt;
  }

  // Alg 5: marches (t, x) towards t_end (step_loop.hpp) with step(), calling observer(t_old, t,
  // x) after every accepted step while interpolate() covers [t_old, t]. h is the fixed step or
  // the next step to try; x_new the workspace of a step (sized like x). The observer may change
  // x only when it stops the loop. Returns false when it did. A method compiled for one small
  // system overrides it to run the same loop on its own state with its step inlined.
  virtual bool advance(const OdeSystem& system, double& t, Vector& x, double t_end, double& h,
                       Vector& x_new, const AdvanceSettings& settings, ObserverRef observer);

  // Dense output on the last accepted step [t, t + h]: the method's own continuous extension
  // where it has one, cubic Hermite otherwise.
  virtual void interpolate(double t_query, Vector& x_out) const = 0;

  [[nodiscard]] const StepperStatistics& statistics() const { return statistics_; }

 protected:
  // The method's step: as step(), and adds what the attempt cost to work (the totals so far).
  virtual StepAttempt do_step(const OdeSystem& system, double t, const Vector& x, double h,
                              Vector& x_new, StepWork& work) = 0;
  // For an advance() that attempts steps without step(): counts one as step() does.
  void count_attempt(bool accepted) {
    ++(accepted ? statistics_.accepted_steps : statistics_.rejected_steps);
  }

 private:
  StepperStatistics statistics_;
};

}  // namespace simverify::simulation
