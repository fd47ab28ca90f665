#pragma once
// The Butcher tableaux simverify ships, each printed next to its accessor with its source.
// Adding a method is one tableau here, one line in the method registry and one line in the
// contract-test list. Order conditions of every tableau are checked numerically in
// testsuites/unit/simulation/tableau_order_conditions_test.cpp.
#include <simverify/simulation/butcher_tableau.hpp>

namespace simverify::simulation::tableaux {

// ---- fixed-step methods (Alg 1) -----------------------------------------------------------

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

// Bogacki-Shampine 3, Simulink ode3: the third-order solution of the BS 3(2) pair without
// its error stage (P. Bogacki, L. F. Shampine, "A 3(2) pair of Runge-Kutta formulas",
// Appl. Math. Lett. 2(4), 1989):
//   0   |
//   1/2 | 1/2
//   3/4 | 0   3/4
//   ----+-------------
//       | 2/9 1/3 4/9
const ButcherTableau& bogacki_shampine3();

// Classical Runge-Kutta, Simulink ode4 (lecture Table 3.4):
//   0   |
//   1/2 | 1/2
//   1/2 | 0   1/2
//   1   | 0   0   1
//   ----+-----------------
//       | 1/6 1/3 1/3 1/6
const ButcherTableau& rk4();

// Dormand-Prince 5, Simulink ode5: the fifth-order solution of Table 3.10 without the FSAL
// stage (b_7 = 0), 6 stages:
//   0    |
//   1/5  | 1/5
//   3/10 | 3/40        9/40
//   4/5  | 44/45       -56/15       32/9
//   8/9  | 19372/6561  -25360/2187  64448/6561  -212/729
//   1    | 9017/3168   -355/33      46732/5247  49/176    -5103/18656
//   -----+--------------------------------------------------------------
//        | 35/384      0            500/1113    125/192   -2187/6784   11/84
const ButcherTableau& dormand_prince5();

// Prince-Dormand 8(7), Simulink ode8: RK8(7)13M (P. J. Prince, J. R. Dormand, "High order
// embedded Runge-Kutta formulae", J. Comput. Appl. Math. 7(1), 1981, pp. 67-75), 13 stages,
// not FSAL. ode8 propagates the eighth-order solution b and ignores b_hat; b_hat is the
// seventh-order embedded solution (embedded order 7), so the same tableau runs adaptively as
// an 8(7) pair (bench/ode_peers_bench.cpp does). The coefficients are the paper's rationals
// (numerators and denominators of up to 11 digits) and live in tableaux.cpp. Structure
// (x: nonzero):
//   c_i                       | a_ij, j = 1 .. i-1
//   0                         |
//   1/18                      | x
//   1/12                      | x x
//   1/8                       | x 0 x
//   5/16                      | x 0 x x
//   3/8                       | x 0 0 x x
//   59/400                    | x 0 0 x x x
//   93/200                    | x 0 0 x x x x
//   5490023248/9719169821     | x 0 0 x x x x x
//   13/20                     | x 0 0 x x x x x x
//   1201146811/1299019798     | x 0 0 x x x x x x x
//   1                         | x 0 0 x x x x x x x x
//   1                         | x 0 0 x x x x x x x x 0
//   --------------------------+--------------------------
//   b     (order 8)           | x 0 0 0 0 x x x x x x x 1/4
//   b_hat (order 7)           | x 0 0 0 0 x x x x x x 2/45 0
// e.g. a_21 = 1/18, b_1 = 14005451/335480064, b_hat_1 = 13451932/455176623.
const ButcherTableau& prince_dormand87();

// ---- embedded pairs for adaptive step size (Def 3.32, Alg 4) ------------------------------

// Runge-Kutta 4(3), lecture Table 3.9, FSAL. The printed table lost a column; complete:
//   0   |
//   1/2 | 1/2
//   1/2 | 0    1/2
//   1   | 0    0    1
//   1   | 1/6  1/3  1/3  1/6
//   ----+----------------------
//   b   | 1/6  1/3  1/3  1/6  0     (order 4, propagated)
//   b^  | 1/6  1/3  1/3  0    1/6   (order 3, embedded)
// The error estimate is h/6 (k_4 - k_5): classical RK4 plus one stage that is free (FSAL).
const ButcherTableau& rk43();

// Bogacki-Shampine 3(2), Simulink/MATLAB ode23, FSAL (Bogacki, Shampine 1989):
//   0   |
//   1/2 | 1/2
//   3/4 | 0     3/4
//   1   | 2/9   1/3   4/9
//   ----+----------------------
//   b   | 2/9   1/3   4/9   0      (order 3)
//   b^  | 7/24  1/4   1/3   1/8    (order 2)
const ButcherTableau& bogacki_shampine23();

// Dormand-Prince 5(4), Simulink/MATLAB ode45, lecture Table 3.10, FSAL (J. R. Dormand,
// P. J. Prince, "A family of embedded Runge-Kutta formulae", J. Comput. Appl. Math. 6(1),
// 1980):
//   0    |
//   1/5  | 1/5
//   3/10 | 3/40        9/40
//   4/5  | 44/45       -56/15       32/9
//   8/9  | 19372/6561  -25360/2187  64448/6561  -212/729
//   1    | 9017/3168   -355/33      46732/5247  49/176    -5103/18656
//   1    | 35/384      0            500/1113    125/192   -2187/6784    11/84
//   -----+----------------------------------------------------------------------------
//   b    | 35/384      0            500/1113    125/192   -2187/6784    11/84     0
//   b^   | 5179/57600  0            7571/16695  393/640   -92097/339200 187/2100  1/40
const ButcherTableau& dormand_prince54();

// Continuous extension of dormand_prince54() (L. F. Shampine, "Some practical Runge-Kutta
// formulas", Math. Comp. 46(173), 1986; the quartic dense output of MATLAB ode45 and SciPy
// RK45): x(t + theta h) = x + h sum_i k_i sum_j P(i, j) theta^(j+1), a 7 x 4 matrix.
// Fourth order uniformly in theta, exact (= the 5th-order solution) at theta = 1.
const Matrix& dormand_prince54_dense();

}  // namespace simverify::simulation::tableaux
