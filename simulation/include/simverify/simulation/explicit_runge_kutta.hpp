#pragma once
// Alg 1: one generic explicit Runge-Kutta step driven by a Butcher tableau (Def 3.23).
#include <simverify/simulation/butcher_tableau.hpp>

#include <vector>

namespace simverify::simulation {

class ExplicitRungeKutta {
 public:
  explicit ExplicitRungeKutta(const ButcherTableau& tableau);

  [[nodiscard]] const ButcherTableau& tableau() const { return *tableau_; }

  // Allocates the stage workspace once for systems of this dimension.
  void resize(Eigen::Index dimension);

  // x_next = Psi(h, x) (Def 3.12). x_next may not alias x.
  void step(const OdeSystem& system, double t, const Vector& x, double h, Vector& x_next);

  // As step(), and also the embedded solution's difference x_next - x_hat (Thm 3.34).
  // Requires an embedded tableau. When first_stage is given it is used as k_1 (FSAL).
  void step_with_error(const OdeSystem& system, double t, const Vector& x, double h, Vector& x_next,
                       Vector& error, const Vector* first_stage = nullptr);

  // Stage derivatives k_i of the last step (used for FSAL and dense output).
  [[nodiscard]] const std::vector<Vector>& stages() const { return k_; }

 private:
  void compute_stages(const OdeSystem& system, double t, const Vector& x, double h,
                      const Vector* first_stage);

  const ButcherTableau* tableau_;
  std::vector<Vector> k_;
  Vector stage_state_;
};

}  // namespace simverify::simulation
