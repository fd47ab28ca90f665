#include "registration.hpp"

#include "diagram_conditions.hpp"
#include "model_units.hpp"

#include <algorithm>

#include <simverify/components/components.hpp>

namespace simverify::components {

framework::Component extend_simulate(std::string name, std::string description,
                                     std::vector<std::string> own_axes,
                                     std::vector<std::string> measures,
                                     framework::EvaluateInContext evaluate,
                                     framework::AxisCheck check_own) {
  framework::Component c = simulate_component();
  c.info.name = std::move(name);
  c.info.description = std::move(description);
  c.info.axes.insert(c.info.axes.end(), own_axes.begin(), own_axes.end());
  c.info.measures = std::move(measures);
  c.evaluate = [evaluate](const framework::Condition& condition) {
    return evaluate(condition, {});
  };
  c.evaluate_in_context = std::move(evaluate);
  c.check_axis = [own = std::move(own_axes), check_own = std::move(check_own),
                  check_simulate = c.check_axis](
                     std::string_view axis,
                     const framework::Value& v) -> std::optional<framework::AxisProblem> {
    if (std::find(own.begin(), own.end(), axis) != own.end()) return check_own(axis, v);
    return check_simulate ? check_simulate(axis, v) : std::nullopt;
  };
  return c;
}

void register_builtin_components(framework::ComponentRegistry& registry) {
  for (framework::Component c :
       {simulate_component(), step_component(), sensitivity_component(), assessment_component(),
        backward_component(), scenario_component(), monte_carlo_component(), command_component()}) {
    // The report draws the block diagrams a requirement runs (docs/diagrams.md).
    if (c.accepts_axis("model") && !c.figures) c.figures = diagram_figures;
    // ... and labels axes and tables with the units its models declare.
    if (c.accepts_axis("model") && !c.units) c.units = model_units;
    registry.add(std::move(c));
  }
}

}  // namespace simverify::components
