#include "model_measure.hpp"

#include "diagram_conditions.hpp"
#include "fmu_conditions.hpp"

#include <simverify/core/text.hpp>
#include <simverify/simulation/model_registry.hpp>

#include <algorithm>
#include <exception>

namespace simverify::components {
namespace {

// A measure y.<name> must name an output of a built-in model (and variant); only a
// co-simulation FMU ends a run itself, the simulator's own models never do.
std::optional<std::string> check_builtin_output(const framework::Condition& c,
                                                std::string_view measure) {
  if (measure == "terminated") {
    return "model '" + c.text("model") +
           "' has no 'terminated': only an FMU run as co-simulation ends a run itself";
  }
  if (!measure.starts_with("y.")) return std::nullopt;
  const auto model = simulation::make_model(c.text("model"), c.text_or("variant", ""));
  const auto& outputs = model->info().outputs;
  const std::string name(measure.substr(2));
  if (std::find(outputs.begin(), outputs.end(), name) != outputs.end()) return std::nullopt;
  return "model '" + c.text("model") + "' has no output '" + name + "'" +
         core::did_you_mean(name, outputs) + "; its outputs: " + core::join(outputs);
}

}  // namespace

// Checked once per model and variant or fmi_type written; a co-simulation measures only its
// outputs and the run (fmu_conditions.hpp).
std::optional<std::string> check_measure_of_models(const framework::Grid& conditions,
                                                   std::string_view measure) {
  const framework::Axis* models = conditions.find_axis("model");
  if (models == nullptr) return std::nullopt;
  for (const auto& model : models->values) {
    // The axis that changes what the model is: an FMU's interface, a built-in's variant (a
    // diagram has none).
    const framework::Axis* kind = names_diagram(model) ? nullptr
                                  : names_fmu(model)   ? conditions.find_axis("fmi_type")
                                                       : conditions.find_axis("variant");
    const std::size_t n = kind != nullptr ? kind->values.size() : 1;
    for (std::size_t k = 0; k < n; ++k) {
      framework::Grid point;
      point.add_group({{framework::Axis{"model", {model}, {}}}});
      if (kind != nullptr) point.add_group({{framework::Axis{kind->name, {kind->values[k]}, {}}}});
      std::optional<std::string> problem;
      try {
        if (names_diagram(model)) {
          problem = check_diagram_measure(model, measure);
        } else if (names_fmu(model)) {
          problem = check_fmu_measure(model, point.point(0), measure);
        } else {
          problem = check_builtin_output(point.point(0), measure);
        }
      } catch (const std::exception& e) {
        // An unknown model or variant: the axis check reports it at its own place.
        if (names_diagram(model) || names_fmu(model)) problem = e.what();
      }
      if (problem) return problem;
    }
  }
  return std::nullopt;
}

}  // namespace simverify::components
