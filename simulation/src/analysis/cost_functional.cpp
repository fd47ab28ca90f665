#include <simverify/simulation/analysis/cost_functional.hpp>
#include <simverify/simulation/stepper.hpp>

#include <cmath>
#include <stdexcept>

namespace simverify::simulation::analysis {

CostFunctional::CostFunctional(Cost cost) : state_(std::make_shared<State>()) {
  if (!cost) throw std::invalid_argument("cost functional: no cost function");
  state_->cost = std::move(cost);
}

StepObserver CostFunctional::observer() {
  return [state = state_](double t_start, double t_end, const Stepper& dense) {
    // Gauss-Legendre nodes on [-1, 1]: 0, +-sqrt(3/5); weights 8/9, 5/9.
    static const double gauss_node = std::sqrt(0.6);
    const double half = 0.5 * (t_end - t_start);
    const double mid = 0.5 * (t_end + t_start);
    double sum = 0.0;
    for (const auto& [node, weight] : {std::pair{-gauss_node, 5.0 / 9.0}, std::pair{0.0, 8.0 / 9.0},
                                       std::pair{gauss_node, 5.0 / 9.0}}) {
      dense.interpolate(mid + half * node, state->x);
      sum += weight * state->cost(state->x);
    }
    state->integral += half * sum;
    state->duration += t_end - t_start;
  };
}

double CostFunctional::mean() const {
  if (!(state_->duration > 0.0)) throw std::logic_error("cost functional: nothing integrated");
  return state_->integral / state_->duration;
}

CostFunctional::Cost CostFunctional::squared_deviation(Vector target) {
  return [target = std::move(target)](const Vector& x) {
    if (x.size() != target.size()) {
      throw std::invalid_argument("squared deviation: x_ref has " + std::to_string(target.size()) +
                                  " entries, the state has " + std::to_string(x.size()));
    }
    return (x - target).squaredNorm();
  };
}

}  // namespace simverify::simulation::analysis
