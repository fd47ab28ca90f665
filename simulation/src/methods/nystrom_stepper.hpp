#pragma once
// Runge-Kutta-Nystrom methods (nystrom_tableau.hpp) behind the Stepper interface, for systems
// that declare x'' = g(t, q) (OdeSystem::second_order): fixed-step for a tableau without an
// embedded solution (rkn4), adaptive with the error test and PI controller of the embedded
// Runge-Kutta pairs otherwise (rkn64, Alg 4 with the Simulink solver list's eq. (3)).
//
// do_step(t, x, h), q = x[positions], v = x[velocities]:
//   k_i   = g(t + c_i h, q + c_i h v + h^2 sum_j a_ij k_j); k_1 reused from the last accepted
//           step's final stage when the tableau is FSAL and (t, x) is where that step ended
//   q_new = q + h v + h^2 sum b_i k_i,  v_new = v + h sum b'_i k_i
//   e     = (h^2 sum (b_i - b^_i) k_i, h sum (b'_i - b'^_i) k_i) on the same states
// Dense output: quintic Hermite in q from (q, v, g) at both ends of the step (g at the end is
// the FSAL stage, or evaluated on demand for rkn4), v from its derivative: fifth-order dense
// positions without a further evaluation of g for rkn64.
#include "methods/step_control.hpp"

#include <simverify/simulation/nystrom_tableau.hpp>
#include <simverify/simulation/stepper.hpp>

#include <vector>

namespace simverify::simulation::detail {

class NystromStepper final : public Stepper {
 public:
  // The tableau must outlive the stepper (tableaux are static in nystrom_tableaux.cpp).
  NystromStepper(const NystromTableau& tableau, StepControlParameters control);

  [[nodiscard]] StepControl control() const override {
    return tableau_->is_embedded() ? StepControl::adaptive : StepControl::fixed;
  }
  [[nodiscard]] int order() const override { return tableau_->order; }
  // Throws std::invalid_argument when the system declares no second-order structure.
  void initialize(const OdeSystem& system, double t0, const Vector& x0,
                  const StepperSettings& settings) override;
  // Hairer-Norsett-Wanner II.4 on the first-order form (v, g): two evaluations of g, the
  // first of which is the first step's k_1.
  [[nodiscard]] double initial_step(const OdeSystem& system, double t0, const Vector& x0,
                                    double t_end) override;
  void interpolate(double t_query, Vector& x_out) const override;

 protected:
  StepAttempt do_step(const OdeSystem& system, double t, const Vector& x, double h, Vector& x_new,
                      StepWork& work) override;

 private:
  void gather(const Vector& x, Vector& q, Vector& v) const;
  void scatter(const Vector& q, const Vector& v, Vector& x) const;
  void stages(const OdeSystem& system, double t, double h, bool reuse_first);

  const NystromTableau* tableau_;
  StepSizeController controller_;
  StepControlParameters control_parameters_;
  StepperSettings settings_;
  ErrorNorm error_norm_;
  std::vector<Eigen::Index> positions_, velocities_;

  // Workspace of one attempt.
  Vector q_, v_, stage_q_, q_new_, v_new_, eq_, ev_, error_;
  std::vector<Vector> k_;
  // The last accepted step [t_old_, t_end_] for dense output and FSAL.
  const OdeSystem* system_ = nullptr;
  double t_old_ = 0.0, t_end_ = 0.0;
  Vector x_end_, q_old_, v_old_, a_old_, q_end_, v_end_;
  mutable Vector a_end_;
  mutable bool a_end_valid_ = false;  // a_end_ == g(t_end_, q_end_)
};

}  // namespace simverify::simulation::detail
