#pragma once
// Cost functional J = integral of l(x(t)) dt over [t0, tf] (Def 2.14, 2.16), evaluated while
// the simulator runs: each accepted step is integrated by 3-point Gauss-Legendre quadrature
// on the method's own dense output (exact for polynomials of degree 5), so J is as accurate
// as the trajectory and no trajectory needs to be stored.
#include <simverify/simulation/simulator.hpp>

#include <functional>
#include <memory>

namespace simverify::simulation::analysis {

class CostFunctional {
 public:
  using Cost = std::function<double(const Vector& x)>;  // l : X -> R_0^+ (Def 2.14)

  explicit CostFunctional(Cost cost);

  // The observer to put into SimulatorSettings::on_step. It shares this functional's
  // accumulator, so read value() after the run.
  [[nodiscard]] StepObserver observer();

  [[nodiscard]] double value() const { return state_->integral; }
  [[nodiscard]] double duration() const { return state_->duration; }
  // Time average J / (t_end - t0), e.g. a mean squared deviation.
  [[nodiscard]] double mean() const;

  // Task 2.15: the squared deviation l(x) = ||x - x_ref||^2 from a target.
  [[nodiscard]] static Cost squared_deviation(Vector target);

 private:
  struct State {
    Cost cost;
    Vector x;
    double integral = 0.0;
    double duration = 0.0;
  };
  std::shared_ptr<State> state_;
};

}  // namespace simverify::simulation::analysis
