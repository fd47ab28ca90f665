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

  // Exchanges the stage buffers with `other` (same count and sizes) in O(1): an adaptive
  // stepper keeps the stages of its last accepted step for dense output this way, without
  // copying, while the next attempt overwrites the buffers it got back.
  void swap_stages(std::vector<Vector>& other) { k_.swap(other); }

 private:
  // One non-zero coefficient: stage (or weight) index j and its value.
  struct Term {
    int j;
    double value;
  };

  void compute_stages(const OdeSystem& system, double t, const Vector& x, double h,
                      const Vector* first_stage);
  // out = base + h sum_{terms} value k_j (base may be null: 0) on raw arrays: Eigen's
  // per-expression overhead dominated small systems (4 states: 2x slower than odeint).
  void combine(const double* base, Eigen::Index n, double h, const std::vector<Term>& terms,
               std::size_t begin, std::size_t end, double* out);

  const ButcherTableau* tableau_;
  // The tableau's non-zeros, extracted once: rows of a (row i is a_terms_[a_row_[i],
  // a_row_[i+1])), b, and b - b_hat. Sparse tableaux (DOP853) skip their zeros for free.
  std::vector<Term> a_terms_;
  std::vector<std::size_t> a_row_;
  std::vector<Term> b_terms_;
  std::vector<Term> e_terms_;
  std::vector<Vector> k_;
  Vector stage_state_;
  std::vector<double> coefficient_;        // combine() scratch: h * value per term
  std::vector<const double*> stage_data_;  // combine() scratch: k_j per term
};

}  // namespace simverify::simulation
