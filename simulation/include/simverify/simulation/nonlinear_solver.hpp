#pragma once
// The nonlinear stage equations of implicit methods (Alg 2 line 4) are solved by fixed-point
// iteration (Alg 3) or simplified Newton. This header holds what both iterations share: the
// stopping threshold that follows h (remark after Alg 3), the convergence monitor that
// estimates the contraction factor from successive increments (Thm 3.31), and the Jacobian
// (analytic or by finite differences) that Newton and the Thm 3.31 check need.
#include <simverify/simulation/ode_system.hpp>
#include <simverify/simulation/stepper.hpp>

#include <stdexcept>
#include <string>

namespace simverify::simulation {

// Raised when fixed-point iteration cannot contract (Thm 3.31: h L ||A|| >= 1, or the
// observed contraction factor is >= 1) and the step size cannot be reduced.
class ContractionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Raised when Newton's method does not converge and the step size cannot be reduced.
class NewtonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Per-component stopping thresholds for the increments h * (k^{i+1} - k^i) of the stages
// (state units). The remark after Alg 3: the consistency order p survives only if the
// iteration error is O(h^(p+1)), so
//   eps_i = max(min(kappa (atol_i + rtol |x_i|), C h^(p+1) (1 + |x_i|)), floor_i)
// with kappa = 0.01 (the iteration error 100 times below the tolerance the error control
// works with), C = 1e-6 (100 times below the smallest local error constant of the shipped
// methods, 2.3e-4 for gauss2, so the iteration error cannot masquerade as discretization
// error in a convergence study) and floor_i = 100 u (1 + |x_i|) so round-off cannot
// prevent convergence.
void stage_thresholds(const Vector& x, double h, int order, const StepperSettings& settings,
                      Vector& thresholds);

// max_i |increment_i| / thresholds_i, over all stages (increment has s * n entries).
[[nodiscard]] double threshold_norm(const Vector& increment, const Vector& thresholds);

enum class IterationStatus { iterating, converged, diverged };

// Watches the increment norms ||Delta^m|| (relative to the thresholds) of one nonlinear
// solve. theta_m = ||Delta^m|| / ||Delta^{m-1}|| estimates the contraction factor K of
// Thm 3.31; the remaining error after the iteration is at most theta/(1 - theta) ||Delta^m||
// (Banach), which is what the stopping test uses (Hairer-Wanner II, Sec. IV.8).
class ConvergenceMonitor {
 public:
  // max_iterations: give up after this many; allowed_growth: consecutive iterations with
  // theta >= 1 tolerated before declaring divergence (fixed-point iterates may grow once
  // before contracting in the max norm).
  ConvergenceMonitor(int max_iterations, int allowed_growth)
      : max_iterations_(max_iterations), allowed_growth_(allowed_growth) {}

  void start();
  IterationStatus update(double increment_norm);

  [[nodiscard]] int iterations() const { return iteration_; }
  [[nodiscard]] double contraction_estimate() const { return theta_; }

 private:
  int max_iterations_;
  int allowed_growth_;
  int iteration_ = 0;
  int growth_ = 0;
  double previous_norm_ = 0.0;
  double theta_ = 0.0;
  double eta_ = 1.0;  // carried over from the previous solve for the first iteration
};

// J = df/dx at (t, x): the model's analytic Jacobian when it has one, else forward
// differences with increments sqrt(u) max(|x_j|, 1) (one f evaluation per column). fx must
// be f(t, x); work_x and work_f are workspaces of size n (no allocation).
void evaluate_jacobian(const OdeSystem& system, double t, const Vector& x, const Vector& fx,
                       Vector& work_x, Vector& work_f, Matrix& jacobian);

// "fixed-point iteration (Alg 3) does not contract ..." with the advice to use Newton or a
// smaller h; shared by every method so the user sees one message.
[[nodiscard]] std::string contraction_message(double t, double h, double factor,
                                              const std::string& how_estimated);

}  // namespace simverify::simulation
