#pragma once
// The Butcher tableaux simverify ships, each printed next to its accessor with its source.
// Adding a method is one tableau here, one line in the method registry and one line in the
// contract-test list.
#include <simverify/simulation/butcher_tableau.hpp>

namespace simverify::simulation::tableaux {

// Explicit Euler, Simulink ode1 (Task 3.25):
//   0 |
//   --+--
//     | 1
const ButcherTableau& euler();

// Heun, Simulink ode2 (Example 3.15, Task 3.25):
//   0 |
//   1 | 1
//   --+---------
//     | 1/2 1/2
const ButcherTableau& heun();

// Classical Runge-Kutta, Simulink ode4 (lecture Table 3.4):
//   0   |
//   1/2 | 1/2
//   1/2 | 0   1/2
//   1   | 0   0   1
//   ----+-----------------
//       | 1/6 1/3 1/3 1/6
const ButcherTableau& rk4();

}  // namespace simverify::simulation::tableaux
