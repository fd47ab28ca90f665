// The Runge-Kutta-Nystrom family by name (nystrom_tableaux.hpp): methods for systems that
// declare x'' = g(t, q) (MethodInfo::second_order).
#include "methods/families.hpp"
#include "methods/nystrom_stepper.hpp"

#include <simverify/simulation/nystrom_tableaux.hpp>

namespace simverify::simulation::detail {

void add_nystrom_methods(const AddMethod& add) {
  const NystromTableau& rkn4 = tableaux::rkn4();
  add({.name = "rkn4",
       .control = StepControl::fixed,
       .order = rkn4.order,
       .implicit = false,
       .description = "classical Runge-Kutta-Nystrom 4, three g evaluations per step",
       .second_order = true},
      [&rkn4] { return std::make_unique<NystromStepper>(rkn4, StepControlParameters{}); });
  // The PI controller of the 5(4) pair ode45 (beta = 0.04), so the comparison with it is
  // one of the formulas, not of the controllers.
  StepControlParameters pi_control{};
  pi_control.beta = 0.04;
  const NystromTableau& rkn64 = tableaux::dormand_el_mikkawy_prince64();
  add({.name = "rkn64",
       .control = StepControl::adaptive,
       .order = rkn64.order,
       .implicit = false,
       .description = "Dormand-El-Mikkawy-Prince RKN6(4)6FM, adaptive, FSAL",
       .second_order = true},
      [&rkn64, pi_control] { return std::make_unique<NystromStepper>(rkn64, pi_control); });
}

}  // namespace simverify::simulation::detail
