#include <simverify/simulation/implicit_tableaux.hpp>

#include "detail/tableau_builder.hpp"

#include <cmath>
#include <initializer_list>

namespace simverify::simulation::tableaux {
namespace {

using detail::make_tableau;
using detail::with_embedded;

}  // namespace

const ButcherTableau& implicit_euler() {
  static const ButcherTableau t = make_tableau("implicit_euler", 1, {1.0}, {{1.0}}, {1.0},
                                               "Hairer-Wanner II, Sec. IV.5 (s = 1)");
  return t;
}

const ButcherTableau& trapezoidal() {
  static const ButcherTableau t =
      make_tableau("trapezoidal", 2, {0.0, 1.0}, {{0.0, 0.0}, {0.5, 0.5}}, {0.5, 0.5},
                   "Lobatto IIIA, Hairer-Wanner II, Sec. IV.5");
  return t;
}

const ButcherTableau& gauss2() {
  const double sqrt3 = std::sqrt(3.0);
  static const ButcherTableau t =
      make_tableau("gauss2", 4, {0.5 - sqrt3 / 6, 0.5 + sqrt3 / 6},
                   {{0.25, 0.25 - sqrt3 / 6}, {0.25 + sqrt3 / 6, 0.25}}, {0.5, 0.5},
                   "Butcher 1964; Hairer-Wanner II, Sec. IV.5");
  return t;
}

const ButcherTableau& radau2a() {
  static const ButcherTableau t =
      make_tableau("radau2a", 3, {1.0 / 3, 1.0}, {{5.0 / 12, -1.0 / 12}, {0.75, 0.25}},
                   {0.75, 0.25}, "Hairer-Wanner II, Sec. IV.5 (s = 2)");
  return t;
}

const ButcherTableau& trapezoidal_embedded() {
  static const ButcherTableau t = with_embedded(
      make_tableau("trapezoidal_embedded", 2, {0.0, 1.0, 2.0},
                   {{0.0, 0.0, 0.0}, {0.5, 0.5, 0.0}, {0.5, 1.0, 0.5}}, {0.5, 0.5, 0.0},
                   "trapezoidal rule + 3rd-order estimate from a second trapezoidal stage"),
      3, {5.0 / 12, 8.0 / 12, -1.0 / 12});
  return t;
}

const ButcherTableau& tr_bdf2() {
  const double sqrt2 = std::sqrt(2.0);
  const double gamma = 2.0 - sqrt2;
  const double d = gamma / 2;
  const double w = sqrt2 / 4;
  static const ButcherTableau t = with_embedded(
      make_tableau("tr_bdf2", 2, {0.0, gamma, 1.0}, {{0.0, 0.0, 0.0}, {d, d, 0.0}, {w, w, d}},
                   {w, w, d}, "Bank et al. 1985; Hosea, Shampine, Appl. Numer. Math. 20, 1996"),
      3, {(1 - w) / 3, (3 * w + 1) / 3, d / 3});
  return t;
}

}  // namespace simverify::simulation::tableaux
