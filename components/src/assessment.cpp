// The `assessment` component (system level): the cost functional J = int l(x(t)) dt of one
// simulator run (Def 2.14-2.16) with the squared deviation from a target x_ref (Task 2.15),
// integrated on the method's dense output. An assessment of a whole simulation is then an
// aggregate over the grid (mean: Task 2.17; max: the worst case).
#include "conditions.hpp"
#include "registration.hpp"

#include <simverify/simulation/analysis/cost_functional.hpp>

#include <cmath>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Measurement;

Measurement assessment(const Condition& c, const framework::PointContext& context) {
  const auto model = model_for(c, requirement_of(context));
  auto settings = simulator_settings(c, *model, requirement_of(context));
  simulation::Vector target = simulation::Vector::Zero(model->state_dimension());
  if (const auto* x_ref = c.find("x_ref")) {
    const auto values = x_ref->as_numbers();
    target = Eigen::Map<const simulation::Vector>(values.data(),
                                                  static_cast<Eigen::Index>(values.size()));
  }
  simulation::analysis::CostFunctional cost(
      simulation::analysis::CostFunctional::squared_deviation(std::move(target)));
  settings.on_step = cost.observer();
  settings.record_trajectory = false;
  const auto run = simulation::Simulator(*model, settings).run();
  Measurement m;
  m.set("cost", cost.value());
  m.set("mean_cost", cost.mean());
  m.set("rms_deviation", std::sqrt(cost.mean()));
  m.set("t_end", run.t_end);
  return m;
}

}  // namespace

framework::Component assessment_component() {
  return extend_simulate(
      "assessment",
      "cost functional J = int ||x - x_ref||^2 dt of a run (Def 2.16) on the dense output",
      {"x_ref"}, {"cost", "mean_cost", "rms_deviation", "t_end"}, assessment,
      [](std::string_view /*axis*/,
         const framework::Value& v) -> std::optional<framework::AxisProblem> {
        try {
          (void)v.as_numbers();
        } catch (const std::exception&) {
          return "expected a list of numbers (the target state)";
        }
        return std::nullopt;
      });
}

}  // namespace simverify::components
