#pragma once
// Butcher tableaux written as in print (Def 3.23): c, the rows of a (lower triangle for
// explicit methods, full for implicit ones; missing entries are zero), b and, for embedded
// pairs (Def 3.32), b_hat. Shared by the explicit, implicit and Runge-Kutta-Nystrom
// catalogues.
#include <simverify/simulation/butcher_tableau.hpp>
#include <simverify/simulation/fixed_size_runge_kutta.hpp>

#include <initializer_list>
#include <string>
#include <utility>

namespace simverify::simulation::detail {

using TableauRow = std::initializer_list<double>;

inline Vector to_vector(TableauRow values) {
  return Eigen::Map<const Vector>(values.begin(), static_cast<Eigen::Index>(values.size()));
}

// The s x s coefficient matrix from its rows as printed (missing entries are zero).
inline Matrix coefficient_matrix(Eigen::Index s, std::initializer_list<TableauRow> rows) {
  Matrix a = Matrix::Zero(s, s);
  Eigen::Index i = 0;
  for (const auto& row : rows) {
    Eigen::Index j = 0;
    for (const double v : row) a(i, j++) = v;
    ++i;
  }
  return a;
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
  t.a = coefficient_matrix(t.c.size(), a);
  return t;
}

inline ButcherTableau with_embedded(ButcherTableau t, int embedded_order, TableauRow b_hat) {
  t.b_hat = to_vector(b_hat);
  t.embedded_order = embedded_order;
  return t;
}

// The ButcherTableau of a constexpr FixedSizeTableau (fixed_size_tableaux.hpp), the same
// coefficients bitwise.
inline ButcherTableau from_fixed_size(std::string name, int order, int embedded_order,
                                      const FixedSizeTableau& f, std::string source) {
  const Eigen::Index s = f.stages;
  ButcherTableau t;
  t.name = std::move(name);
  t.order = order;
  t.source = std::move(source);
  t.c = Eigen::Map<const Vector>(f.c.data(), s);
  t.b = Eigen::Map<const Vector>(f.b.data(), s);
  t.a = Matrix::Zero(s, s);
  for (Eigen::Index i = 0; i < s; ++i) {
    for (Eigen::Index j = 0; j < i; ++j) {
      t.a(i, j) = f.a[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    }
  }
  if (f.embedded) {
    t.b_hat = Eigen::Map<const Vector>(f.b_hat.data(), s);
    t.embedded_order = embedded_order;
  }
  return t;
}

}  // namespace simverify::simulation::detail
