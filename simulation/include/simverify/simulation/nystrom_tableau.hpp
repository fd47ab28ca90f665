#pragma once
// A Runge-Kutta-Nystrom method for second-order systems q'' = g(t, q) is its coefficients,
// as a Runge-Kutta method is its Butcher tableau (butcher_tableau.hpp). One step from
// (t, q, v = q') of size h:
//   k_i    = g(t + c_i h, q + c_i h v + h^2 sum_j a_ij k_j)      (a strictly lower triangular)
//   q_new  = q + h v + h^2 sum_i b_i k_i
//   v_new  = v + h sum_i b'_i k_i
// One evaluation of g per stage: where a general method would evaluate f = (v, g) on the
// first-order system, a Nystrom stage needs only g, and the order conditions (on Nystrom
// trees, testsuites/unit/simulation/nystrom_order_conditions_test.cpp) are fewer than for
// Runge-Kutta trees, so the same order comes with fewer stages.
#include <simverify/simulation/ode_system.hpp>

#include <optional>
#include <string>

namespace simverify::simulation {

struct NystromTableau {
  std::string name;
  Matrix a;        // a_ij, the stage positions' coupling (h^2 scale)
  Vector b;        // b_i, weights of the position update (h^2 scale)
  Vector b_prime;  // b'_i, weights of the velocity update
  Vector c;        // nodes c_i
  int order = 0;   // order p of both q_new and v_new
  // Embedded solution (both position and velocity weights) of order embedded_order, if any.
  std::optional<Vector> b_hat, b_prime_hat;
  int embedded_order = 0;
  std::string source;  // where the coefficients were taken from

  [[nodiscard]] int stages() const { return static_cast<int>(b.size()); }
  [[nodiscard]] bool is_embedded() const { return b_hat.has_value() && b_prime_hat.has_value(); }
  // First same as last: the last stage is evaluated at (t + h, q_new) (its row of a is b, c = 1
  // and b_s = 0), so it is g at the step's end, the next step's first stage.
  [[nodiscard]] bool is_fsal() const;
};

}  // namespace simverify::simulation
