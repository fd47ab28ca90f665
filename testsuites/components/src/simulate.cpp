// The `simulate` component (integration level): runs a model with a method over one grid point
// and measures the run (format page, "Built-in components and measures").
#include "conditions.hpp"
#include "registration.hpp"

#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Measurement;
using simulation::Vector;

double max_norm_distance(const Vector& a, const Vector& b) {
  return (a - b).lpNorm<Eigen::Infinity>();
}

Measurement simulate(const Condition& c) {
  const auto model = model_for(c);
  const auto settings = simulator_settings(c, *model);
  const simulation::Simulator simulator(*model, settings);
  const simulation::SimulatorResult run = simulator.run();

  Measurement m;
  m.set("x_end", std::vector<double>(run.x_end.begin(), run.x_end.end()));
  m.set("steps", static_cast<double>(run.statistics.steps));
  m.set("rejected_steps", static_cast<double>(run.statistics.rejected_steps));
  m.set("f_evals", static_cast<double>(run.statistics.rhs_evaluations));

  if (model->has_exact_solution()) {
    const simulation::Context context{.p = simulator.parameters(), .u = {}, .mode = 0};
    const Vector x0 = simulator.initial_state();
    Vector exact(x0.size());
    double error_max = 0.0;
    for (std::size_t i = 0; i < run.trajectory.size(); ++i) {
      model->exact_solution(run.trajectory.time[i], settings.t0, x0, context, exact);
      error_max = std::max(error_max, max_norm_distance(run.trajectory.states[i], exact));
    }
    model->exact_solution(run.t_end, settings.t0, x0, context, exact);
    m.set("error_end", max_norm_distance(run.x_end, exact));
    m.set("error_max", error_max);
  }
  return m;
}

}  // namespace

framework::Component simulate_component() {
  framework::Component c;
  c.info.name = "simulate";
  c.info.description = "runs a model with a solution method (Alg 7) and measures the run";
  c.info.axes = {"model", "variant", "method", "h", "rtol", "atol", "t0", "tf", "x0", "p.*"};
  c.info.measures = {"x_end", "error_end", "error_max", "steps", "rejected_steps", "f_evals"};
  c.evaluate = simulate;
  c.check_axis = check_model_and_method_axes;
  return c;
}

}  // namespace simverify::components
