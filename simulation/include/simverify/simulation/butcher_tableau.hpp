#pragma once
// A Runge-Kutta method is its coefficients (Def 3.23, 3.29, 3.32): the generic algorithms in
// the explicit (src/explicit_runge_kutta.hpp) and implicit Runge-Kutta steps take one of these
// as data.
#include <simverify/simulation/ode_system.hpp>

#include <optional>
#include <string>

namespace simverify::simulation {

struct ButcherTableau {
  std::string name;
  Matrix a;                     // stage coupling alpha_ij
  Vector b;                     // weights beta_i of the propagated solution
  Vector c;                     // nodes c_i
  int order = 0;                // consistency order p of b (Def 3.16)
  std::optional<Vector> b_hat;  // embedded weights (Def 3.32), if any
  int embedded_order = 0;       // order of b_hat
  std::string source;           // where the coefficients were taken from

  [[nodiscard]] int stages() const { return static_cast<int>(b.size()); }
  [[nodiscard]] bool is_explicit() const;  // a strictly lower triangular
  [[nodiscard]] bool is_embedded() const { return b_hat.has_value(); }
  // First same as last: the last stage is evaluated at the propagated solution, so its
  // derivative is the next step's first stage (saves one f evaluation per step).
  [[nodiscard]] bool is_fsal() const;
};

}  // namespace simverify::simulation
