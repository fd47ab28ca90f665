#pragma once
// Butcher tableaux of the implicit Runge-Kutta methods (Def 3.29, Table 3.7) and of the
// stiff Simulink solvers ode23t and ode23tb written as ESDIRK pairs (Def 3.32). Each one is
// printed next to its accessor with its source; all are solved by implicit_runge_kutta.hpp.
#include <simverify/simulation/butcher_tableau.hpp>

namespace simverify::simulation::tableaux {

// ---- fixed-step implicit Runge-Kutta (Alg 2) ----------------------------------------------

// Implicit (backward) Euler, order 1, L-stable; Radau IIA with one stage (E. Hairer,
// G. Wanner, "Solving Ordinary Differential Equations II", 2nd ed., Sec. IV.5):
//   1 | 1
//   --+--
//     | 1
const ButcherTableau& implicit_euler();

// Trapezoidal rule (Crank-Nicolson), order 2, A-stable; the 2-stage Lobatto IIIA method
// (Hairer-Wanner II, Sec. IV.5):
//   0 | 0    0
//   1 | 1/2  1/2
//   --+----------
//     | 1/2  1/2
const ButcherTableau& trapezoidal();

// Gauss-Legendre with 2 stages, order 4 = 2m (Thm 3.30 is sharp here), A-stable
// (J. C. Butcher, "Implicit Runge-Kutta processes", Math. Comp. 18, 1964; Hairer-Wanner II,
// Sec. IV.5):
//   1/2 - sqrt(3)/6 | 1/4               1/4 - sqrt(3)/6
//   1/2 + sqrt(3)/6 | 1/4 + sqrt(3)/6   1/4
//   ----------------+-----------------------------------
//                   | 1/2               1/2
const ButcherTableau& gauss2();

// Radau IIA with 2 stages, order 3 = 2m - 1, L-stable and stiffly accurate (Hairer-Wanner
// II, Sec. IV.5):
//   1/3 | 5/12  -1/12
//   1   | 3/4    1/4
//   ----+-------------
//       | 3/4    1/4
const ButcherTableau& radau2a();

// ---- adaptive ESDIRK pairs (Def 3.32) -----------------------------------------------------

// Trapezoidal rule with an embedded third-order estimate, Simulink/MATLAB ode23t. Stage 3
// is a second trapezoidal step from x_new over [t + h, t + 2h] (same diagonal 1/2, so the
// same iteration matrix); b^ integrates the quadratic through k_1, k_2, k_3 over [t, t + h].
// b - b^ = (1, -2, 1)/12 gives the estimate h/12 (k_1 - 2 k_2 + k_3) ~ h^3 x'''/12, the
// trapezoidal rule's own local error term.
// Order conditions checked in implicit_runge_kutta_test.cpp.
//   0 | 0    0    0
//   1 | 1/2  1/2  0
//   2 | 1/2  1    1/2
//   --+-----------------
//   b | 1/2  1/2  0        (order 2, propagated)
//   b^| 5/12 8/12 -1/12    (order 3, embedded)
const ButcherTableau& trapezoidal_embedded();

// TR-BDF2, Simulink/MATLAB ode23tb: a trapezoidal stage to t + gamma h, then BDF2 to t + h,
// gamma = 2 - sqrt(2), d = gamma/2, w = sqrt(2)/4 (R. E. Bank et al., "Transient simulation
// of silicon devices and circuits", IEEE Trans. CAD 4(4), 1985; M. E. Hosea, L. F. Shampine,
// "Analysis and implementation of TR-BDF2", Appl. Numer. Math. 20, 1996, Sec. 2). L-stable,
// stiffly accurate, one iteration matrix I - d h J for both implicit stages:
//   0     | 0            0           0
//   gamma | d            d           0
//   1     | w            w           d
//   ------+------------------------------------
//   b     | w            w           d          (order 2, propagated)
//   b^    | (1 - w)/3    (3w + 1)/3  d/3        (order 3, embedded)
const ButcherTableau& tr_bdf2();

}  // namespace simverify::simulation::tableaux
