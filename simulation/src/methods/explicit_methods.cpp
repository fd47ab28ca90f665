// The explicit Runge-Kutta family by name: fixed-step Alg 1 and adaptive Alg 4 with the
// tableaux of tableaux.hpp. MethodInfo.order is the order of the propagated solution.
#include "methods/adaptive_rk_stepper.hpp"
#include "methods/explicit_fixed_stepper.hpp"
#include "methods/families.hpp"

#include <simverify/simulation/tableaux.hpp>

#include <string>
#include <vector>

namespace simverify::simulation::detail {
namespace {

void add_fixed(const AddMethod& add, const std::string& name, const ButcherTableau& tableau,
               const std::string& description) {
  add({name, StepControl::fixed, tableau.order, false, description},
      [&tableau] { return std::make_unique<ExplicitFixedStepper>(tableau); });
}

struct NamedAdaptiveMethod {
  std::string name;
  AdaptiveRungeKuttaMethod method;
  std::string description;
};

// Thm 3.35 with eta = 0.9, growth <= 5, shrink >= 0.2. The PI term (beta = 0.04, Hairer's
// DOPRI5) is used for the 5(4) pair it was tuned for; the low-order pairs keep the pure I
// controller of the lecture.
const std::vector<NamedAdaptiveMethod>& adaptive_methods() {
  static const std::vector<NamedAdaptiveMethod> methods = [] {
    const StepControlParameters i_control{};
    const StepControlParameters pi_control{.beta = 0.04};
    const DenseOutput cubic_hermite{};
    const DenseOutput shampine{.extension = &tableaux::dormand_prince54_dense()};
    return std::vector<NamedAdaptiveMethod>{
        {"rk43",
         {&tableaux::rk43(), cubic_hermite, i_control},
         "Runge-Kutta 4(3), lecture Table 3.9, adaptive"},
        {"ode23",
         {&tableaux::bogacki_shampine23(), cubic_hermite, i_control},
         "Bogacki-Shampine 3(2), adaptive (Simulink ode23)"},
        {"ode45",
         {&tableaux::dormand_prince54(), shampine, pi_control},
         "Dormand-Prince 5(4), adaptive (Simulink ode45)"},
        {"dopri54",
         {&tableaux::dormand_prince54(), shampine, pi_control},
         "Dormand-Prince 5(4), lecture Table 3.10, adaptive"},
        // RK8(7)13M has no published continuous extension in its 13 stages; septic Hermite
        // on two substeps keeps the dense output seventh order (DenseOutput). Pure I
        // control, as Hairer's DOP853 for its eighth-order pair (beta = 0).
        {"ode87",
         {&tableaux::prince_dormand87(), {.substeps = true}, i_control},
         "Prince-Dormand 8(7), RK8(7)13M, adaptive"},
    };
  }();
  return methods;
}

}  // namespace

void add_explicit_methods(const AddMethod& add) {
  add_fixed(add, "ode1", tableaux::euler(), "explicit Euler (Simulink ode1)");
  add_fixed(add, "euler", tableaux::euler(), "explicit Euler");
  add_fixed(add, "ode2", tableaux::heun(), "Heun (Simulink ode2)");
  add_fixed(add, "heun", tableaux::heun(), "Heun");
  add_fixed(add, "ode3", tableaux::bogacki_shampine3(), "Bogacki-Shampine 3 (Simulink ode3)");
  add_fixed(add, "ode4", tableaux::rk4(), "classical Runge-Kutta (Simulink ode4)");
  add_fixed(add, "rk4", tableaux::rk4(), "classical Runge-Kutta");
  add_fixed(add, "ode5", tableaux::dormand_prince5(), "Dormand-Prince 5 (Simulink ode5)");
  add_fixed(add, "ode8", tableaux::prince_dormand87(), "Prince-Dormand RK8(7)13M (Simulink ode8)");

  for (const NamedAdaptiveMethod& m : adaptive_methods()) {
    const AdaptiveRungeKuttaMethod method = m.method;
    add({m.name, StepControl::adaptive, method.tableau->order, false, m.description}, [method] {
      return std::make_unique<AdaptiveRungeKuttaStepper>(*method.tableau, method.dense,
                                                         method.control);
    });
  }
}

const AdaptiveRungeKuttaMethod* adaptive_runge_kutta_method(const std::string& name) {
  for (const NamedAdaptiveMethod& m : adaptive_methods()) {
    if (m.name == name) return &m.method;
  }
  return nullptr;
}

}  // namespace simverify::simulation::detail
