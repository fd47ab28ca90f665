#pragma once
// The Runge-Kutta-Nystrom tableaux simverify ships (nystrom_tableau.hpp), each printed next
// to its accessor with its source. Order conditions on Nystrom trees are checked numerically
// in testsuites/unit/simulation/nystrom_order_conditions_test.cpp.
#include <simverify/simulation/nystrom_tableau.hpp>

namespace simverify::simulation::tableaux {

// Classical fourth-order Runge-Kutta-Nystrom (E. Kreyszig, Advanced Engineering Mathematics,
// Sec. 21.3, as the simulation-practice article gives it): for q'' = g(t, q) its stages 2 and
// 3 coincide, leaving three evaluations of g per step (RK4 on the first-order system: four):
//   0   |
//   1/2 | 1/8
//   1   | 0    1/2
//   ----+---------------
//   b   | 1/6  1/3  0       (q_new = q + h v + h^2 sum b_i k_i)
//   b'  | 1/6  2/3  1/6     (v_new = v + h sum b'_i k_i)
const NystromTableau& rkn4();

// Dormand-El-Mikkawy-Prince RKN6(4)6FM (J. R. Dormand, M. E. A. El-Mikkawy, P. J. Prince,
// "Families of Runge-Kutta-Nystrom formulae", IMA J. Numer. Anal. 7(2), 1987, pp. 235-250),
// FSAL: six stages, five new evaluations of g per step, order 6 with an embedded order 4:
//   0     |
//   1/10  | 1/200
//   3/10  | -1/2200     1/22
//   7/10  | 637/6600    -7/110       7/33
//   17/25 | 225437/1968750  -30073/281250  65569/281250  -9367/984375
//   1     | 151/2142    5/116        385/1368   55/168        -6250/28101
//   ------+-------------------------------------------------------------------
//   b     | 151/2142    5/116        385/1368   55/168        -6250/28101   0
//   b'    | 151/2142    25/522       275/684    275/252       -78125/112404 1/12
//   b^    | 1349/157500 7873/50000   192199/900000  521683/2100000  -16/125  0
//   b'^   | 1349/157500 7873/45000   27457/90000    521683/630000   -2/5     1/12
const NystromTableau& dormand_el_mikkawy_prince64();

}  // namespace simverify::simulation::tableaux
