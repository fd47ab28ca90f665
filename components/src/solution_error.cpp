#include "solution_error.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace simverify::components {
namespace {

using simulation::Vector;

double distance(const Vector& a, const Vector& b) {
  return (a - b).lpNorm<Eigen::Infinity>();
}

// Max over time points of the error, where points sharing a time count once with the
// smaller error (see the header).
double max_over_times(const std::vector<double>& time, const std::vector<double>& error) {
  double worst = 0.0;
  for (std::size_t i = 0; i < time.size();) {
    double best = error[i];
    std::size_t j = i + 1;
    for (; j < time.size() && time[j] == time[i]; ++j) best = std::min(best, error[j]);
    worst = std::max(worst, best);
    i = j;
  }
  return worst;
}

}  // namespace

SolutionError solution_error(const simulation::Simulator& simulator,
                             const simulation::SimulatorResult& run,
                             std::optional<double> constant_input,
                             const std::string& reference_method) {
  const simulation::Model& model = simulator.model();
  const auto& settings = simulator.settings();
  const auto& tr = run.trajectory;
  const Vector x0 = simulator.initial_state();
  SolutionError result;
  std::vector<double> errors(tr.size(), 0.0);

  const bool input_ok = !settings.input || constant_input.has_value();
  if (model.has_exact_solution() &&
      (input_ok || !model.info().exact_solution_needs_constant_input)) {
    simulation::Context context{.p = simulator.parameters(), .u = {}, .mode = 0};
    context.u.value = constant_input.value_or(0.0);
    context.mode = model.initial_mode(settings.t0, x0, context);
    Vector exact(x0.size());
    for (std::size_t i = 0; i < tr.size(); ++i) {
      model.exact_solution(tr.time[i], settings.t0, x0, context, exact);
      errors[i] = distance(tr.states[i], exact);
    }
    model.exact_solution(run.t_end, settings.t0, x0, context, exact);
    result.end = distance(run.x_end, exact);
    result.max = std::max(max_over_times(tr.time, errors), result.end);
    return result;
  }

  simulation::SimulatorSettings reference = settings;
  reference.method = reference_method;
  reference.h = 0.0;
  reference.stepper.rtol = kReferenceRtol;
  reference.stepper.atol = {kReferenceAtol};
  reference.output_times = tr.time;
  if (reference.output_times.empty() || reference.output_times.back() != run.t_end) {
    reference.output_times.push_back(run.t_end);
  }
  reference.record_outputs = false;
  const simulation::Simulator ref_simulator(model, reference);
  const auto ref = ref_simulator.run();
  const std::size_t n = std::min(tr.size(), ref.trajectory.size());
  errors.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    errors[i] = distance(tr.states[i], ref.trajectory.states[i]);
  }
  // The reference's last recorded point is at t_end unless it stopped earlier (a terminal
  // event located 1e-12 sooner); then its end point stands in.
  const bool complete = ref.trajectory.size() > 0 && ref.trajectory.time.back() == run.t_end;
  result.end = distance(run.x_end, complete ? ref.trajectory.states.back() : ref.x_end);
  result.max = std::max(
      max_over_times(
          std::vector<double>(tr.time.begin(), tr.time.begin() + static_cast<std::ptrdiff_t>(n)),
          errors),
      result.end);
  result.from_reference = true;
  return result;
}

}  // namespace simverify::components
