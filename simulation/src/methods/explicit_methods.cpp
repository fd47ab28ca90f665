// The explicit Runge-Kutta family by name (Alg 1 with the tableaux of tableaux.hpp).
#include "methods/explicit_fixed_stepper.hpp"
#include "methods/families.hpp"

#include <simverify/simulation/tableaux.hpp>

namespace simverify::simulation::detail {
namespace {

void add_fixed(const AddMethod& add, const std::string& name, const ButcherTableau& tableau,
               const std::string& description) {
  add({name, StepControl::fixed, tableau.order, false, description},
      [&tableau] { return std::make_unique<ExplicitFixedStepper>(tableau); });
}

}  // namespace

void add_explicit_methods(const AddMethod& add) {
  add_fixed(add, "ode1", tableaux::euler(), "explicit Euler (Simulink ode1)");
  add_fixed(add, "euler", tableaux::euler(), "explicit Euler");
  add_fixed(add, "ode2", tableaux::heun(), "Heun (Simulink ode2)");
  add_fixed(add, "heun", tableaux::heun(), "Heun");
  add_fixed(add, "ode4", tableaux::rk4(), "classical Runge-Kutta (Simulink ode4)");
  add_fixed(add, "rk4", tableaux::rk4(), "classical Runge-Kutta");
}

}  // namespace simverify::simulation::detail
