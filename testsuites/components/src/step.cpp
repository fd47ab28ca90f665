// The `step` component (unit level): one step of a method from the exact solution at t0, so
// `local_error` measures the consistency order (Def 3.16).
#include "conditions.hpp"
#include "registration.hpp"

#include <simverify/simulation/method_registry.hpp>

#include <stdexcept>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Measurement;
using simulation::Vector;

Measurement step(const Condition& c) {
  const auto model = model_for(c);
  if (!model->has_exact_solution()) {
    throw std::invalid_argument("step needs a model with an exact solution; '" +
                                model->info().name + "' has none");
  }
  auto settings = simulator_settings(c, *model);
  if (!(settings.h > 0)) throw std::invalid_argument("step needs h > 0");
  settings.tf = settings.t0 + settings.h;
  const simulation::Simulator simulator(*model, settings);
  const auto run = simulator.run();
  const simulation::Context context{.p = simulator.parameters(), .u = {}, .mode = 0};
  Vector exact;
  model->exact_solution(settings.tf, settings.t0, simulator.initial_state(), context, exact);
  Measurement m;
  m.set("local_error", (run.x_end - exact).lpNorm<Eigen::Infinity>());
  m.set("f_evals", static_cast<double>(run.statistics.rhs_evaluations));
  return m;
}

}  // namespace

framework::Component step_component() {
  framework::Component c;
  c.info.name = "step";
  c.info.description = "one step of a method from the exact solution; measures local_error";
  c.info.axes = {"model", "variant", "method", "h", "t0", "x0", "p.*"};
  c.info.measures = {"local_error", "f_evals"};
  c.evaluate = step;
  c.check_axis = check_model_and_method_axes;
  return c;
}

}  // namespace simverify::components
