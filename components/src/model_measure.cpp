#include "model_measure.hpp"

#include "diagram_conditions.hpp"
#include "fmu_conditions.hpp"

#include <simverify/core/text.hpp>
#include <simverify/simulation/model_registry.hpp>

#include <algorithm>
#include <exception>

namespace simverify::components {
namespace {

// A measure y.<name> must name an output of a built-in model (and variant).
std::optional<std::string> check_builtin_output(const framework::Condition& c,
                                                std::string_view measure) {
  if (!measure.starts_with("y.")) return std::nullopt;
  const auto model = simulation::make_model(c.text("model"), c.text_or("variant", ""));
  const auto& outputs = model->info().outputs;
  const std::string name(measure.substr(2));
  if (std::find(outputs.begin(), outputs.end(), name) != outputs.end()) return std::nullopt;
  return "model '" + c.text("model") + "' has no output '" + name + "'" +
         core::did_you_mean(name, outputs) + "; its outputs: " + core::join(outputs);
}

// `check` of each model of the `model` axis, on a point of it with each variant or fmi_type
// written (the axis that changes what the model is; a diagram has none): the first problem.
template <class Check>
std::optional<std::string> first_problem_of_models(const framework::Grid& conditions,
                                                   const Check& check) {
  const framework::Axis* models = conditions.find_axis("model");
  if (models == nullptr) return std::nullopt;
  for (const auto& model : models->values) {
    const framework::Axis* kind = names_diagram(model) ? nullptr
                                  : names_fmu(model)   ? conditions.find_axis("fmi_type")
                                                       : conditions.find_axis("variant");
    const std::size_t n = kind != nullptr ? kind->values.size() : 1;
    for (std::size_t k = 0; k < n; ++k) {
      framework::Grid point;
      point.add_group({{framework::Axis{"model", {model}, {}}}});
      if (kind != nullptr) point.add_group({{framework::Axis{kind->name, {kind->values[k]}, {}}}});
      if (auto problem = check(model, point.point(0))) return problem;
    }
  }
  return std::nullopt;
}

}  // namespace

// Checked once per model and variant or fmi_type written; a co-simulation measures only its
// outputs and the run (fmu_conditions.hpp).
std::optional<std::string> check_measure_of_models(const framework::Grid& conditions,
                                                   std::string_view measure) {
  return first_problem_of_models(
      conditions,
      [measure](const framework::Value& model,
                const framework::Condition& point) -> std::optional<std::string> {
        try {
          if (measure == "terminated" && !names_fmu(model)) {
            // Only a co-simulation FMU ends a run itself; the simulator's own models and the
            // diagrams it runs never do (an FMU's fmi_type decides: check_fmu_measure).
            return (names_diagram(model) ? diagram_name(model)
                                         : "model '" + model.as_string() + "'") +
                   " has no 'terminated': only an FMU run as co-simulation ends a run itself";
          }
          if (names_diagram(model)) return check_diagram_measure(model, measure);
          if (names_fmu(model)) return check_fmu_measure(model, point, measure);
          return check_builtin_output(point, measure);
        } catch (const std::exception& e) {
          // An unknown model or variant: the axis check reports it at its own place.
          if (names_diagram(model) || names_fmu(model)) return e.what();
        }
        return std::nullopt;
      });
}

// The state a built-in model (with its variant), a diagram or an FMU has is known before
// anything runs; x_end holds one element per state.
std::optional<std::string> check_state_element(const framework::Grid& conditions,
                                               std::string_view written, std::size_t index) {
  return first_problem_of_models(
      conditions,
      [written, index](const framework::Value& model,
                       const framework::Condition& point) -> std::optional<std::string> {
        std::string whose;
        std::size_t states = 0;
        try {
          if (names_fmu(model)) {
            const auto fmu = fmu_of(model);
            whose = fmu_name(*fmu);
            states = fmu->description().states.size();
          } else {
            // As check_simulation_point sizes x0 (only the description is read).
            const bool diagram = names_diagram(model);
            whose = diagram ? diagram_name(model) : "model '" + point.text("model") + "'";
            states = static_cast<std::size_t>(
                (diagram
                     ? diagram_model(point, {})
                     : simulation::make_model(point.text("model"), point.text_or("variant", "")))
                    ->state_dimension());
          }
        } catch (const std::exception&) {
          return std::nullopt;  // the axis and point checks say what is wrong with the model
        }
        if (index < states) return std::nullopt;
        const std::string range =
            states == 0   ? " has no states, so x_end has no elements"
            : states == 1 ? " has 1 state, so x_end has 1 element: x_end[0]"
                          : " has " + std::to_string(states) + " states, so x_end has " +
                                std::to_string(states) + " elements: x_end[0]..x_end[" +
                                std::to_string(states - 1) + "]";
        return std::string(written) + " is out of range: " + whose + range;
      });
}

}  // namespace simverify::components
