#pragma once
// Alg 1: one generic explicit Runge-Kutta step driven by a Butcher tableau (Def 3.23).
#include <simverify/simulation/butcher_tableau.hpp>
#include <simverify/simulation/fixed_size_runge_kutta.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace simverify::simulation {

class ExplicitRungeKutta {
 public:
  explicit ExplicitRungeKutta(const ButcherTableau& tableau);

  [[nodiscard]] const ButcherTableau& tableau() const { return *tableau_; }

  // Allocates the stage workspace once for systems of this dimension; step() and
  // step_with_error() do not allocate for systems of this dimension. Chooses the fixed-size
  // path (fixed_size_runge_kutta.hpp) for systems of up to kMaxFixedSizeStates states.
  void resize(Eigen::Index dimension);

  // Whether steps on systems of the current dimension take the fixed-size path.
  [[nodiscard]] bool fixed_size() const { return fixed_step_ != nullptr; }
  // Forces the generic path (tests compare the two paths).
  void disable_fixed_size() {
    allow_fixed_size_ = false;
    fixed_step_ = nullptr;
  }

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
  struct Combination;
  // out = base + sum_q (h coefficient_q) k_{stage_q} over the terms of one Combination (base
  // may be null: 0); explicit_runge_kutta.cpp says why it looks like this.
  using CombineFunction = void (*)(const Combination& terms, const double* const* k, Eigen::Index n,
                                   const double* base, double h, double* out);
  // One linear combination of the stages, planned once per tableau: the non-zero coefficients
  // and the stage each multiplies, the function that sums exactly that many terms, and for a
  // row of a the node c_i of the stage it feeds.
  struct Combination {
    std::vector<double> coefficient;
    std::vector<int> stage;
    CombineFunction function = nullptr;
    double node = 0.0;
  };

  // fixed_size_step<N, S> on Vector stages with f = the OdeSystem.
  using FixedSizeStep = void (*)(const FixedSizeTableau& tableau, const OdeSystem& system, double t,
                                 const Vector& x, double h, Vector* k, Vector& stage,
                                 Vector& x_next, Vector* error, const Vector* first_stage);

  static Combination plan(std::vector<double> coefficients, bool with_base, double node);
  void compute_stages(const OdeSystem& system, double t, const Vector& x, double h,
                      const Vector* first_stage, Vector& x_next);
  void combine(const Combination& terms, const double* base, double h, double* out) const {
    terms.function(terms, stage_data_.data(), stage_state_.size(), base, h, out);
  }

  const ButcherTableau* tableau_;
  // FSAL (a's last row == b): the last stage is evaluated at x_next, so x_next is that
  // stage's argument and needs no combination of its own.
  bool fsal_;
  // The tableau's rows of a, b and b - b_hat without their zeros, so no step multiplies by a
  // zero coefficient (sparse tableaux such as RK8(7)13M skip their zeros for free).
  std::vector<Combination> a_rows_;
  Combination b_terms_;
  Combination e_terms_;
  std::optional<FixedSizeTableau> fixed_tableau_;  // tableaux of up to kMaxFixedSizeStages
  FixedSizeStep fixed_step_ = nullptr;             // null: the generic path
  bool allow_fixed_size_ = true;
  std::vector<Vector> k_;
  std::vector<const double*> stage_data_;  // where each k_j of the current step is read
  Vector stage_state_;
};

}  // namespace simverify::simulation
