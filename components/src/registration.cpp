#include "registration.hpp"

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
  c.check_axis =
      [own = std::move(own_axes), check_own = std::move(check_own), check_simulate = c.check_axis](
          std::string_view axis, const framework::Value& v) -> std::optional<std::string> {
    if (std::find(own.begin(), own.end(), axis) != own.end()) return check_own(axis, v);
    return check_simulate ? check_simulate(axis, v) : std::nullopt;
  };
  return c;
}

void register_builtin_components(framework::ComponentRegistry& registry) {
  registry.add(simulate_component());
  registry.add(step_component());
  registry.add(sensitivity_component());
  registry.add(assessment_component());
  registry.add(backward_component());
  registry.add(scenario_component());
  registry.add(monte_carlo_component());
  registry.add(command_component());
}

}  // namespace simverify::components
