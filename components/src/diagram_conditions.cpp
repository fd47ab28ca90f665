#include "diagram_conditions.hpp"

#include "input_conditions.hpp"

#include <simverify/components/diagram_file.hpp>
#include <simverify/core/text.hpp>
#include <simverify/framework/diagnostics.hpp>

#include <algorithm>
#include <stdexcept>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Value;

}  // namespace

std::string diagram_name(const Value& model) {
  return "diagram '" + model.as_string() + "'";
}

bool names_diagram(const Value& model) {
  return model.is_string() && is_diagram_path(model.as_string());
}

std::shared_ptr<const simulation::diagram::CompiledDiagram> diagram_of(const Value& model) {
  return load_diagram(path_relative_to_file(model));  // DiagramError is an invalid_argument
}

std::unique_ptr<simulation::Model> diagram_model(const Condition& c, std::string_view requirement) {
  const auto seed = static_cast<std::uint64_t>(c.number_or("seed", 0.0));
  simulation::diagram::NamedInputs inputs;
  for (const auto& [axis, value] : c.entries()) {
    // Each inport's noise draws from its own stream (input_conditions.hpp).
    if (axis.starts_with("u.")) {
      inputs.emplace_back(std::string(axis.substr(2)),
                          input_from(*value, seed, {.requirement = requirement, .axis = axis}));
    }
  }
  return std::make_unique<simulation::diagram::DiagramModel>(diagram_of(c.at("model")),
                                                             std::move(inputs));
}

std::optional<std::string> check_diagram_point(const Condition& c) {
  const Value& model = c.at("model");
  const auto diagram = diagram_of(model);
  const auto& inports = diagram->inports();
  if (const Value* variant = c.find("variant")) {
    return diagram_name(model) + " has no variants (variant: " + variant->str() + ")";
  }
  for (const auto& [axis, value] : c.entries()) {
    if (axis == "fmi_type")
      return std::string("fmi_type is for FMUs; ") + diagram_name(model) + " is a diagram";
    if (!axis.starts_with("u.")) continue;
    const std::string name(axis.substr(2));
    if (std::find(inports.begin(), inports.end(), name) == inports.end()) {
      return diagram_name(model) + " has no inport '" + name + "'" +
             framework::did_you_mean(name, inports) +
             "; its inports: " + core::join_or_none(inports);
    }
  }
  if (c.has("u") && inports.size() != 1) {
    return diagram_name(model) + " has " + std::to_string(inports.size()) + " inports (" +
           core::join_or_none(inports) + "): u drives exactly one; give each as u.<name>";
  }
  return std::nullopt;
}

std::vector<framework::Figure> diagram_figures(const framework::Requirement& r) {
  std::vector<framework::Figure> figures;
  const framework::Axis* models = r.conditions.find_axis("model");
  if (models == nullptr) return figures;
  std::vector<std::string> seen;
  for (const Value& model : models->values) {
    if (!names_diagram(model)) continue;
    const std::string& title = model.as_string();
    if (std::find(seen.begin(), seen.end(), title) != seen.end()) continue;
    seen.push_back(title);
    try {
      figures.push_back({title, diagram_of(model)->dot()});
    } catch (const std::invalid_argument&) {
      // validate refused it already; a run without its figure is still a run
    }
  }
  return figures;
}

std::optional<std::string> check_diagram_measure(const Value& model, std::string_view measure) {
  if (!measure.starts_with("y.")) return std::nullopt;
  const auto& outputs = diagram_of(model)->info().outputs;
  const std::string name(measure.substr(2));
  if (std::find(outputs.begin(), outputs.end(), name) != outputs.end()) return std::nullopt;
  return diagram_name(model) + " has no output '" + name + "'" +
         framework::did_you_mean(name, outputs) + "; its outputs: " + core::join_or_none(outputs);
}

}  // namespace simverify::components
