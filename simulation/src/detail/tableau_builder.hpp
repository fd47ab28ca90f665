#pragma once
// Butcher tableaux written as in print (Def 3.23): c, the rows of a (lower triangle for
// explicit methods, full for implicit ones; missing entries are zero), b and, for embedded
// pairs (Def 3.32), b_hat. Shared by the explicit and implicit tableau catalogues.
#include <simverify/simulation/butcher_tableau.hpp>

#include <initializer_list>
#include <string>
#include <utility>

namespace simverify::simulation::detail {

using TableauRow = std::initializer_list<double>;

inline Vector to_vector(TableauRow values) {
  return Eigen::Map<const Vector>(values.begin(), static_cast<Eigen::Index>(values.size()));
}

inline ButcherTableau make_tableau(std::string name, int order, TableauRow c,
                                   std::initializer_list<TableauRow> a, TableauRow b,
                                   std::string source) {
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
    for (const double v : row) t.a(i, j++) = v;
    ++i;
  }
  return t;
}

inline ButcherTableau with_embedded(ButcherTableau t, int embedded_order, TableauRow b_hat) {
  t.b_hat = to_vector(b_hat);
  t.embedded_order = embedded_order;
  return t;
}

}  // namespace simverify::simulation::detail
