#include <simverify/simulation/tableaux.hpp>

#include <simverify/simulation/fixed_size_tableaux.hpp>

#include "detail/tableau_builder.hpp"

namespace simverify::simulation::tableaux {
namespace {

using detail::from_fixed_size;
using detail::make_tableau;
using detail::with_embedded;

}  // namespace

const ButcherTableau& euler() {
  static const ButcherTableau t =
      make_tableau("euler", 1, {0.0}, {{}}, {1.0}, "lecture notes Task 3.25");
  return t;
}

const ButcherTableau& heun() {
  static const ButcherTableau t =
      make_tableau("heun", 2, {0.0, 1.0}, {{}, {1.0}}, {0.5, 0.5}, "lecture notes Example 3.15");
  return t;
}

const ButcherTableau& bogacki_shampine3() {
  static const ButcherTableau t =
      make_tableau("bogacki_shampine3", 3, {0.0, 0.5, 0.75}, {{}, {0.5}, {0.0, 0.75}},
                   {2.0 / 9, 1.0 / 3, 4.0 / 9}, "Bogacki, Shampine, Appl. Math. Lett. 2(4), 1989");
  return t;
}

const ButcherTableau& rk4() {
  static const ButcherTableau t =
      make_tableau("rk4", 4, {0.0, 0.5, 0.5, 1.0}, {{}, {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}},
                   {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}, "lecture notes Table 3.4");
  return t;
}

const ButcherTableau& dormand_prince5() {
  static const ButcherTableau t =
      make_tableau("dormand_prince5", 5, {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0},
                   {{},
                    {1.0 / 5},
                    {3.0 / 40, 9.0 / 40},
                    {44.0 / 45, -56.0 / 15, 32.0 / 9},
                    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
                    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656}},
                   {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
                   "lecture notes Table 3.10 without the FSAL stage; Dormand, Prince 1980");
  return t;
}

const ButcherTableau& prince_dormand87() {
  // The rationals Prince and Dormand (1981) print for RK8(7)13M, as published (the same as
  // GSL's rk8pd.c). They are rational approximations of the method: in exact arithmetic the
  // row sums match c and the order conditions hold to about 1e-17 only, far below double
  // round-off (tableau_order_conditions_test.cpp checks both). Row 13 is a_13,1 .. a_13,12
  // with a_13,12 = 0, so k_12 does not feed k_13; b_hat_13 = 0, so the 7th-order solution
  // uses only the first 12 stages.
  static const ButcherTableau t = with_embedded(
      make_tableau(
          "prince_dormand87", 8,
          {0.0, 1.0 / 18, 1.0 / 12, 1.0 / 8, 5.0 / 16, 3.0 / 8, 59.0 / 400, 93.0 / 200,
           5490023248.0 / 9719169821, 13.0 / 20, 1201146811.0 / 1299019798, 1.0, 1.0},
          {{},
           {1.0 / 18},
           {1.0 / 48, 1.0 / 16},
           {1.0 / 32, 0.0, 3.0 / 32},
           {5.0 / 16, 0.0, -75.0 / 64, 75.0 / 64},
           {3.0 / 80, 0.0, 0.0, 3.0 / 16, 3.0 / 20},
           {29443841.0 / 614563906, 0.0, 0.0, 77736538.0 / 692538347, -28693883.0 / 1125000000,
            23124283.0 / 1800000000},
           {16016141.0 / 946692911, 0.0, 0.0, 61564180.0 / 158732637, 22789713.0 / 633445777,
            545815736.0 / 2771057229, -180193667.0 / 1043307555},
           {39632708.0 / 573591083, 0.0, 0.0, -433636366.0 / 683701615, -421739975.0 / 2616292301,
            100302831.0 / 723423059, 790204164.0 / 839813087, 800635310.0 / 3783071287},
           {246121993.0 / 1340847787, 0.0, 0.0, -37695042795.0 / 15268766246,
            -309121744.0 / 1061227803, -12992083.0 / 490766935, 6005943493.0 / 2108947869,
            393006217.0 / 1396673457, 123872331.0 / 1001029789},
           {-1028468189.0 / 846180014, 0.0, 0.0, 8478235783.0 / 508512852,
            1311729495.0 / 1432422823, -10304129995.0 / 1701304382, -48777925059.0 / 3047939560,
            15336726248.0 / 1032824649, -45442868181.0 / 3398467696, 3065993473.0 / 597172653},
           {185892177.0 / 718116043, 0.0, 0.0, -3185094517.0 / 667107341, -477755414.0 / 1098053517,
            -703635378.0 / 230739211, 5731566787.0 / 1027545527, 5232866602.0 / 850066563,
            -4093664535.0 / 808688257, 3962137247.0 / 1805957418, 65686358.0 / 487910083},
           {403863854.0 / 491063109, 0.0, 0.0, -5068492393.0 / 434740067, -411421997.0 / 543043805,
            652783627.0 / 914296604, 11173962825.0 / 925320556, -13158990841.0 / 6184727034,
            3936647629.0 / 1978049680, -160528059.0 / 685178525, 248638103.0 / 1413531060, 0.0}},
          {14005451.0 / 335480064, 0.0, 0.0, 0.0, 0.0, -59238493.0 / 1068277825,
           181606767.0 / 758867731, 561292985.0 / 797845732, -1041891430.0 / 1371343529,
           760417239.0 / 1151165299, 118820643.0 / 751138087, -528747749.0 / 2220607170, 1.0 / 4},
          "Prince, Dormand, J. Comput. Appl. Math. 7(1), 1981, RK8(7)13M"),
      7,
      {13451932.0 / 455176623, 0.0, 0.0, 0.0, 0.0, -808719846.0 / 976000145,
       1757004468.0 / 5645159321, 656045339.0 / 265891186, -3867574721.0 / 1518517206,
       465885868.0 / 322736535, 53011238.0 / 667516719, 2.0 / 45, 0.0});
  return t;
}

const ButcherTableau& rk43() {
  static const ButcherTableau t =
      from_fixed_size("rk43", 4, 3, fixed_size_tableaux::kRk43,
                      "lecture notes Table 3.9 (missing column restored)");
  return t;
}

const ButcherTableau& bogacki_shampine23() {
  static const ButcherTableau t =
      from_fixed_size("bogacki_shampine23", 3, 2, fixed_size_tableaux::kBogackiShampine23,
                      "Bogacki, Shampine, Appl. Math. Lett. 2(4), 1989");
  return t;
}

const ButcherTableau& dormand_prince54() {
  static const ButcherTableau t = from_fixed_size(
      "dormand_prince54", 5, 4, fixed_size_tableaux::kDormandPrince54,
      "lecture notes Table 3.10; Dormand, Prince, J. Comput. Appl. Math. 6(1), 1980");
  return t;
}

const Matrix& dormand_prince54_dense() {
  static const Matrix p = [] {
    Matrix m(7, 4);
    // Shampine 1986 with the optimum c_6, as in SciPy RK45.P.
    m << 1.0, -8048581381.0 / 2820520608, 8663915743.0 / 2820520608,
        -12715105075.0 / 11282082432,  //
        0.0, 0.0, 0.0, 0.0,            //
        0.0, 131558114200.0 / 32700410799, -68118460800.0 / 10900136933,
        87487479700.0 / 32700410799,  //
        0.0, -1754552775.0 / 470086768, 14199869525.0 / 1410260304,
        -10690763975.0 / 1880347072,  //
        0.0, 127303824393.0 / 49829197408, -318862633887.0 / 49829197408,
        701980252875.0 / 199316789632,                                                       //
        0.0, -282668133.0 / 205662961, 2019193451.0 / 616988883, -1453857185.0 / 822651844,  //
        0.0, 40617522.0 / 29380423, -110615467.0 / 29380423, 69997945.0 / 29380423;
    return m;
  }();
  return p;
}

}  // namespace simverify::simulation::tableaux
