// The implicit family by name (Alg 2, 3): implicit Runge-Kutta and the stiff Simulink solvers.
#include "methods/families.hpp"

namespace simverify::simulation::detail {

void add_implicit_methods(const AddMethod& /*add*/) {}

}  // namespace simverify::simulation::detail
