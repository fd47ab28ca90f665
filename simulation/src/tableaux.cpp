#include <simverify/simulation/tableaux.hpp>

namespace simverify::simulation::tableaux {
namespace {

ButcherTableau make(std::string name, int order, std::initializer_list<double> c,
                    std::initializer_list<std::initializer_list<double>> a,
                    std::initializer_list<double> b, std::string source) {
  ButcherTableau t;
  t.name = std::move(name);
  t.order = order;
  t.source = std::move(source);
  const auto s = static_cast<Eigen::Index>(c.size());
  t.c = Eigen::Map<const Vector>(c.begin(), s);
  t.b = Eigen::Map<const Vector>(b.begin(), s);
  t.a = Matrix::Zero(s, s);
  Eigen::Index i = 0;
  for (const auto& row : a) {
    Eigen::Index j = 0;
    for (double v : row) t.a(i, j++) = v;
    ++i;
  }
  return t;
}

}  // namespace

const ButcherTableau& euler() {
  static const ButcherTableau t =
      make("euler", 1, {0.0}, {{0.0}}, {1.0}, "lecture notes Task 3.25");
  return t;
}

const ButcherTableau& heun() {
  static const ButcherTableau t = make("heun", 2, {0.0, 1.0}, {{0.0, 0.0}, {1.0, 0.0}}, {0.5, 0.5},
                                       "lecture notes Example 3.15");
  return t;
}

const ButcherTableau& rk4() {
  static const ButcherTableau t =
      make("rk4", 4, {0.0, 0.5, 0.5, 1.0}, {{}, {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}},
           {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}, "lecture notes Table 3.4");
  return t;
}

}  // namespace simverify::simulation::tableaux
