#include <simverify/simulation/implicit_tableaux.hpp>

#include <cmath>
#include <initializer_list>

namespace simverify::simulation::tableaux {
namespace {

Vector to_vector(std::initializer_list<double> values) {
  return Eigen::Map<const Vector>(values.begin(), static_cast<Eigen::Index>(values.size()));
}

ButcherTableau make(std::string name, int order, std::initializer_list<double> c,
                    std::initializer_list<std::initializer_list<double>> a,
                    std::initializer_list<double> b, std::string source) {
  ButcherTableau t;
  t.name = std::move(name);
  t.order = order;
  t.source = std::move(source);
  t.c = to_vector(c);
  t.b = to_vector(b);
  const Eigen::Index s = t.c.size();
  t.a = Matrix::Zero(s, s);
  Eigen::Index i = 0;
  for (const auto& row : a) {
    Eigen::Index j = 0;
    for (double v : row) t.a(i, j++) = v;
    ++i;
  }
  return t;
}

ButcherTableau with_embedded(ButcherTableau t, std::initializer_list<double> b_hat,
                             int embedded_order) {
  t.b_hat = to_vector(b_hat);
  t.embedded_order = embedded_order;
  return t;
}

}  // namespace

const ButcherTableau& implicit_euler() {
  static const ButcherTableau t =
      make("implicit_euler", 1, {1.0}, {{1.0}}, {1.0}, "Hairer-Wanner II, Sec. IV.5 (s = 1)");
  return t;
}

const ButcherTableau& trapezoidal() {
  static const ButcherTableau t = make("trapezoidal", 2, {0.0, 1.0}, {{0.0, 0.0}, {0.5, 0.5}},
                                       {0.5, 0.5}, "Lobatto IIIA, Hairer-Wanner II, Sec. IV.5");
  return t;
}

const ButcherTableau& gauss2() {
  const double kSqrt3 = std::sqrt(3.0);
  static const ButcherTableau t = make("gauss2", 4, {0.5 - kSqrt3 / 6, 0.5 + kSqrt3 / 6},
                                       {{0.25, 0.25 - kSqrt3 / 6}, {0.25 + kSqrt3 / 6, 0.25}},
                                       {0.5, 0.5}, "Butcher 1964; Hairer-Wanner II, Sec. IV.5");
  return t;
}

const ButcherTableau& radau2a() {
  static const ButcherTableau t =
      make("radau2a", 3, {1.0 / 3, 1.0}, {{5.0 / 12, -1.0 / 12}, {0.75, 0.25}}, {0.75, 0.25},
           "Hairer-Wanner II, Sec. IV.5 (s = 2)");
  return t;
}

const ButcherTableau& trapezoidal_embedded() {
  static const ButcherTableau t =
      with_embedded(make("trapezoidal_embedded", 2, {0.0, 1.0, 2.0},
                         {{0.0, 0.0, 0.0}, {0.5, 0.5, 0.0}, {0.5, 1.0, 0.5}}, {0.5, 0.5, 0.0},
                         "trapezoidal rule + 3rd-order estimate from a second trapezoidal stage"),
                    {5.0 / 12, 8.0 / 12, -1.0 / 12}, 3);
  return t;
}

const ButcherTableau& tr_bdf2() {
  const double kSqrt2 = std::sqrt(2.0);
  const double gamma = 2.0 - kSqrt2;
  const double d = gamma / 2;
  const double w = kSqrt2 / 4;
  static const ButcherTableau t = with_embedded(
      make("tr_bdf2", 2, {0.0, gamma, 1.0}, {{0.0, 0.0, 0.0}, {d, d, 0.0}, {w, w, d}}, {w, w, d},
           "Bank et al. 1985; Hosea, Shampine, Appl. Numer. Math. 20, 1996"),
      {(1 - w) / 3, (3 * w + 1) / 3, d / 3}, 3);
  return t;
}

}  // namespace simverify::simulation::tableaux
