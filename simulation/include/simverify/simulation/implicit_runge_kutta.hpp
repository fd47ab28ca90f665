#pragma once
// Alg 2: one generic implicit Runge-Kutta step driven by a Butcher tableau (Def 3.29). The
// stage equations k = F(k) of (3.19), an s*n dimensional nonlinear system, are solved by
//   - fixed-point iteration (Alg 3), with the contraction condition of Thm 3.31 checked
//     a priori (h L ||A||_inf from the model's Jacobian, when it has one) and a posteriori
//     (the observed ratio of successive increments), or
//   - simplified Newton: one LU of I - h (A (x) J) per step, J = df/dx at (t, x) analytic or
//     by finite differences (Hairer-Wanner II, Sec. IV.8).
// The stopping threshold follows h so the order survives (remark after Alg 3), see
// stage_thresholds() in nonlinear_solver.hpp.
#include <simverify/simulation/butcher_tableau.hpp>
#include <simverify/simulation/nonlinear_solver.hpp>
#include <simverify/simulation/stepper.hpp>

#include <Eigen/LU>

namespace simverify::simulation {

// Why a step's stage equations were not solved.
enum class StageFailure { none, contraction_bound, fixed_point_diverged, newton_diverged };

struct StageSolveResult {
  StageFailure failure = StageFailure::none;
  int iterations = 0;
  double contraction = 0.0;  // h L ||A|| (contraction_bound) or the observed ratio theta
  [[nodiscard]] bool converged() const { return failure == StageFailure::none; }
};

class ImplicitRungeKutta {
 public:
  ImplicitRungeKutta(const ButcherTableau& tableau, NonlinearSolver solver);

  [[nodiscard]] const ButcherTableau& tableau() const { return *tableau_; }
  [[nodiscard]] NonlinearSolver solver() const { return solver_; }
  void set_solver(NonlinearSolver solver) { solver_ = solver; }

  // Allocates the workspace once for systems of this dimension (the step loop does not
  // allocate) and keeps the tolerances for the stopping threshold.
  void resize(Eigen::Index dimension, const StepperSettings& settings);

  // x_next = Psi(h, x) (3.20). x_next may not alias x. Counts f-independent work (LU
  // factorizations, Jacobians, iterations) in work. On failure x_next is unspecified.
  StageSolveResult step(const OdeSystem& system, double t, const Vector& x, double h,
                        Vector& x_next, StepWork& work);

  // For embedded tableaux, after a successful step: the estimate h sum (b_i - b^_i) k_i of
  // the local error of x_next (Thm 3.34). With Newton it is filtered by (I - h gamma J)^-1,
  // gamma the last diagonal entry of A, so stiff components do not inflate it (Shampine's
  // device, Hairer-Wanner II, Sec. IV.8); that costs one n x n LU per step.
  void error_estimate(Vector& error);

  // Dense output on the last successful step at t + theta h, theta in [0, 1]: the
  // collocation polynomial when the tableau is a collocation method whose stage order s
  // reaches min(p, 3) (implicit Euler, trapezoidal rule), cubic Hermite otherwise.
  void interpolate(double theta, Vector& x_out) const;

  // Whether the collocation polynomial is used for dense output.
  [[nodiscard]] bool uses_collocation_output() const { return collocation_output_; }

 private:
  void evaluate_stages(const OdeSystem& system, double t, const Vector& x, double h);
  void update_jacobian(const OdeSystem& system, double t, const Vector& x, StepWork& work);
  StageSolveResult solve_fixed_point(const OdeSystem& system, double t, const Vector& x, double h,
                                     StepWork& work);
  StageSolveResult solve_newton(const OdeSystem& system, double t, const Vector& x, double h,
                                StepWork& work);

  const ButcherTableau* tableau_;
  NonlinearSolver solver_;
  StepperSettings settings_;
  Eigen::Index n_ = 0;
  int s_ = 0;
  double a_norm_ = 0.0;         // ||A||_inf for the Thm 3.31 bound
  std::vector<bool> zero_row_;  // explicit stages k_i = f(t, x) (ESDIRK first stage)
  int end_stage_ = -1;          // stage with k_i = f(t + h, x_next), if any (stiffly accurate)
  bool collocation_output_ = false;
  Matrix collocation_;  // l_j(tau) = sum_m collocation_(m, j) tau^m (Lagrange basis)

  ConvergenceMonitor fixed_point_monitor_{100, 1};
  ConvergenceMonitor newton_monitor_{10, 0};

  Vector k_, f_, delta_;  // stacked stages, F(k), increments (s * n)
  Vector stage_state_, f_tmp_, thresholds_, work_x_, work_f_;
  Matrix jacobian_, iteration_matrix_, filter_matrix_;
  Eigen::PartialPivLU<Matrix> lu_, filter_lu_;
  bool jacobian_valid_ = false;
  double jacobian_t_ = 0.0;
  Vector jacobian_x_;

  // The last successful step, for error_estimate() and interpolate().
  double h_ = 0.0;
  Vector x_old_, x_new_, f_old_, f_new_;
};

}  // namespace simverify::simulation
