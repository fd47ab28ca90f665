#include <simverify/simulation/nystrom_tableaux.hpp>

#include "detail/tableau_builder.hpp"

#include <initializer_list>
#include <string>
#include <utility>

namespace simverify::simulation {

bool NystromTableau::is_fsal() const {
  const Eigen::Index s = b.size();
  if (s < 2 || c(s - 1) != 1.0 || b(s - 1) != 0.0) return false;
  return a.row(s - 1).transpose() == b;
}

namespace tableaux {
namespace {

using detail::coefficient_matrix;
using detail::TableauRow;
using detail::to_vector;

// As detail::make_tableau, with the velocity weights b' beside the position weights b.
NystromTableau make(std::string name, int order, TableauRow c, std::initializer_list<TableauRow> a,
                    TableauRow b, TableauRow b_prime, std::string source) {
  NystromTableau t;
  t.name = std::move(name);
  t.order = order;
  t.source = std::move(source);
  t.c = to_vector(c);
  t.b = to_vector(b);
  t.b_prime = to_vector(b_prime);
  t.a = coefficient_matrix(t.c.size(), a);
  return t;
}

}  // namespace

const NystromTableau& rkn4() {
  static const NystromTableau t =
      make("rkn4", 4, {0.0, 0.5, 1.0}, {{}, {1.0 / 8}, {0.0, 0.5}}, {1.0 / 6, 1.0 / 3, 0.0},
           {1.0 / 6, 2.0 / 3, 1.0 / 6}, "Kreyszig, Advanced Engineering Mathematics, Sec. 21.3");
  return t;
}

const NystromTableau& dormand_el_mikkawy_prince64() {
  static const NystromTableau t = [] {
    const TableauRow b = {151.0 / 2142, 5.0 / 116, 385.0 / 1368, 55.0 / 168, -6250.0 / 28101, 0.0};
    NystromTableau m =
        make("rkn64", 6, {0.0, 1.0 / 10, 3.0 / 10, 7.0 / 10, 17.0 / 25, 1.0},
             {{},
              {1.0 / 200},
              {-1.0 / 2200, 1.0 / 22},
              {637.0 / 6600, -7.0 / 110, 7.0 / 33},
              {225437.0 / 1968750, -30073.0 / 281250, 65569.0 / 281250, -9367.0 / 984375},
              b},
             b, {151.0 / 2142, 25.0 / 522, 275.0 / 684, 275.0 / 252, -78125.0 / 112404, 1.0 / 12},
             "Dormand, El-Mikkawy, Prince, IMA J. Numer. Anal. 7(2), 1987: RKN6(4)6FM");
    m.b_hat = to_vector(
        {1349.0 / 157500, 7873.0 / 50000, 192199.0 / 900000, 521683.0 / 2100000, -16.0 / 125, 0.0});
    m.b_prime_hat = to_vector(
        {1349.0 / 157500, 7873.0 / 45000, 27457.0 / 90000, 521683.0 / 630000, -2.0 / 5, 1.0 / 12});
    m.embedded_order = 4;
    return m;
  }();
  return t;
}

}  // namespace tableaux
}  // namespace simverify::simulation
