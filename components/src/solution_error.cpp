#include "solution_error.hpp"

#include "reference_solution.hpp"

#include <algorithm>
#include <vector>

namespace simverify::components {
namespace {

using simulation::Vector;

double distance(const Vector& a, const Vector& b) {
  return (a - b).lpNorm<Eigen::Infinity>();
}

// Max over time points of the error, where points sharing a time count once with the
// smaller error (see the header); `error` may cover a prefix of `time` (none: 0).
double max_over_times(const std::vector<double>& time, const std::vector<double>& error) {
  double worst = 0.0;
  for (std::size_t i = 0; i < error.size();) {
    double best = error[i];
    std::size_t j = i + 1;
    for (; j < error.size() && time[j] == time[i]; ++j) best = std::min(best, error[j]);
    worst = std::max(worst, best);
    i = j;
  }
  return worst;
}

}  // namespace

SolutionError solution_error(const simulation::Simulator& simulator,
                             const simulation::SimulatorResult& run, const ErrorProblem& problem) {
  const simulation::Model& model = simulator.model();
  const auto& settings = simulator.settings();
  const auto& tr = run.trajectory;
  const Vector x0 = simulator.initial_state();
  SolutionError result;
  std::vector<double> errors(problem.want_max ? tr.size() : 0, 0.0);

  const bool input_ok = !settings.input || problem.constant_input.has_value();
  if (model.has_exact_solution() &&
      (input_ok || !model.info().exact_solution_needs_constant_input)) {
    simulation::Context context{.p = simulator.parameters(), .u = {}, .mode = 0};
    context.u.value = problem.constant_input.value_or(0.0);
    context.mode = model.initial_mode(settings.t0, x0, context);
    Vector exact(x0.size());
    for (std::size_t i = 0; i < errors.size(); ++i) {
      model.exact_solution(tr.time[i], settings.t0, x0, context, exact);
      errors[i] = distance(tr.states[i], exact);
    }
    model.exact_solution(run.t_end, settings.t0, x0, context, exact);
    result.end = distance(run.x_end, exact);
    result.max = std::max(max_over_times(tr.time, errors), result.end);
    return result;
  }

  const auto reference = ReferenceSolution::shared(problem.key, [&] {
    return ReferenceSolution(model, settings, problem.reference_method, kReferenceRtol,
                             kReferenceAtol);
  });
  for (std::size_t i = 0; i < errors.size(); ++i) {
    errors[i] = reference->distance(tr.time[i], tr.states[i]);
  }
  result.end = reference->distance(run.t_end, run.x_end);
  result.max = std::max(max_over_times(tr.time, errors), result.end);
  result.from_reference = true;
  return result;
}

}  // namespace simverify::components
