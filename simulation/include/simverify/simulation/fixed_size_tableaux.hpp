#pragma once
// The adaptive pairs that have a fixed-size stepper, as constexpr data: the one source of
// tableaux::bogacki_shampine23(), rk43() and dormand_prince54() (tableaux.hpp prints them
// with their sources), and, as template arguments of fixed_size_step, tableaux whose zero
// coefficients the compiler knows (fixed_size_runge_kutta.hpp).
#include <simverify/simulation/fixed_size_runge_kutta.hpp>

namespace simverify::simulation::fixed_size_tableaux {

// Bogacki-Shampine 3(2), FSAL (Bogacki, Shampine, Appl. Math. Lett. 2(4), 1989).
inline constexpr FixedSizeTableau kBogackiShampine23{
    {0.0, 0.5, 0.75, 1.0},
    {{}, {0.5}, {0.0, 0.75}, {2.0 / 9, 1.0 / 3, 4.0 / 9}},
    {2.0 / 9, 1.0 / 3, 4.0 / 9, 0.0},
    {7.0 / 24, 1.0 / 4, 1.0 / 3, 1.0 / 8}};

// Runge-Kutta 4(3): the lecture's Table 3.9 propagates classical RK4 (lecture Table 3.4), kept
// here. Its embedded solution (FSAL stage at c = 1, estimate h/6 (k_4 - k_5)) is replaced by
// Zonneveld's (extra stage at c = 3/4; Zonneveld 1963, Hairer-Norsett-Wanner I Sec. II.4): on
// the nodes 0, 1/2, 1 every third-order b_hat integrates x' = g(t) as Simpson does, so the
// estimate vanished there (x' = sin(pi t), rtol 1e-9: 8 steps, error 6.3). Not FSAL.
inline constexpr FixedSizeTableau kRk43{
    {0.0, 0.5, 0.5, 1.0, 0.75},
    {{}, {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}, {5.0 / 32, 7.0 / 32, 13.0 / 32, -1.0 / 32}},
    {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6, 0.0},
    {-1.0 / 2, 7.0 / 3, 7.0 / 3, 13.0 / 6, -16.0 / 3}};

// Dormand-Prince 5(4), lecture Table 3.10, FSAL (Dormand, Prince, J. Comput. Appl. Math.
// 6(1), 1980).
inline constexpr FixedSizeTableau kDormandPrince54{
    {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0},
    {{},
     {1.0 / 5},
     {3.0 / 40, 9.0 / 40},
     {44.0 / 45, -56.0 / 15, 32.0 / 9},
     {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
     {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
     {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}},
    {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0.0},
    {5179.0 / 57600, 0.0, 7571.0 / 16695, 393.0 / 640, -92097.0 / 339200, 187.0 / 2100, 1.0 / 40}};

}  // namespace simverify::simulation::fixed_size_tableaux
