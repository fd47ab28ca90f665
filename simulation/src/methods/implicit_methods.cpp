// The implicit family by name (Alg 2, 3): implicit Runge-Kutta and the stiff Simulink solvers
// of the Simulink solver list (ode14x, ode15s, ode23s, ode23t, ode23tb) and the multistep ode113.
#include "methods/extrapolation_stepper.hpp"
#include "methods/families.hpp"
#include "methods/implicit_rk_stepper.hpp"
#include "methods/multistep_adams_stepper.hpp"
#include "methods/multistep_bdf_stepper.hpp"
#include "methods/rosenbrock_stepper.hpp"

#include <simverify/simulation/implicit_tableaux.hpp>

namespace simverify::simulation::detail {
namespace {

void add_runge_kutta(const AddMethod& add, const std::string& name, const ButcherTableau& tableau,
                     StepControl control, const std::string& description) {
  add({name, control, tableau.order, true, description}, [&tableau, control] {
    return std::make_unique<ImplicitRungeKuttaStepper>(tableau, control);
  });
}

}  // namespace

void add_implicit_methods(const AddMethod& add) {
  const auto fixed = StepControl::fixed;
  const auto adaptive = StepControl::adaptive;
  add_runge_kutta(add, "implicit_euler", tableaux::implicit_euler(), fixed,
                  "implicit Euler, L-stable (Alg 2)");
  add_runge_kutta(add, "trapezoidal", tableaux::trapezoidal(), fixed,
                  "trapezoidal rule / Crank-Nicolson, A-stable (Alg 2)");
  add_runge_kutta(add, "gauss2", tableaux::gauss2(), fixed,
                  "2-stage Gauss-Legendre, order 4, A-stable (Alg 2)");
  add_runge_kutta(add, "radau2a", tableaux::radau2a(), fixed,
                  "2-stage Radau IIA, order 3, L-stable (Alg 2)");
  add_runge_kutta(add, "ode23t", tableaux::trapezoidal_embedded(), adaptive,
                  "trapezoidal rule with embedded 3rd-order estimate (Simulink ode23t)");
  add_runge_kutta(add, "ode23tb", tableaux::tr_bdf2(), adaptive,
                  "TR-BDF2, Hosea-Shampine (Simulink ode23tb)");
  add({"ode23s", adaptive, 2, true, "Rosenbrock 2(3), Shampine-Reichelt (Simulink ode23s)"},
      [] { return std::make_unique<RosenbrockStepper>(); });
  add({"ode14x", fixed, 4, true,
       "extrapolated implicit Euler with Newton, order = extrapolation_order (Simulink ode14x)"},
      [] { return std::make_unique<ExtrapolationStepper>(); });
  // Variable order 1..5: the registry carries the order every run is guaranteed (1, the
  // start-up order); BdfStepper::order() reports the current one.
  add({"ode15s", adaptive, 1, true,
       "variable-step variable-order BDF, orders 1-5 (Simulink ode15s; BDF, not NDF)"},
      [] { return std::make_unique<BdfStepper>(); });
  // ode113 is explicit (PECE), listed here with the other multistep code of the Simulink solver
  // list.
  add({"ode113", adaptive, 1, false,
       "variable-step variable-order Adams-Bashforth-Moulton PECE, orders 1-12 (Simulink "
       "ode113); registered order 1 = the guaranteed start-up order"},
      [] { return std::make_unique<AdamsStepper>(); });
}

}  // namespace simverify::simulation::detail
