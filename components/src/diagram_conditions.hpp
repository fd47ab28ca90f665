#pragma once
// Internal: a `model:` that is a diagram file (a path ending in .yaml or .yml, relative to the
// requirement file naming it; DIAGRAM-FORMAT.md "Using a diagram") and the conditions that
// go with it: p.<name> (its parameters), u (its one inport) or u.<name> (several), x0.
#include <simverify/framework/component.hpp>
#include <simverify/framework/grid.hpp>
#include <simverify/framework/requirement.hpp>
#include <simverify/simulation/diagram/diagram_model.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::components {

// True for a string ending in .yaml or .yml.
[[nodiscard]] bool names_diagram(const framework::Value& model);

// "diagram 'path'", as messages name the diagram a `model:` value names.
[[nodiscard]] std::string diagram_name(const framework::Value& model);

// The compiled diagram a `model:` value names (read and compiled once per process). Throws
// std::invalid_argument: the diagram's own file:line:column and what is wrong.
[[nodiscard]] std::shared_ptr<const simulation::diagram::CompiledDiagram> diagram_of(
    const framework::Value& model);

// The point's diagram as a model, its inports bound to u.<name> (noise keyed by the
// requirement id, the axis and the seed, as every input: input_conditions.hpp).
[[nodiscard]] std::unique_ptr<simulation::Model> diagram_model(const framework::Condition& c,
                                                               std::string_view requirement);

// Load-time check of a point whose model is a diagram: u.<name> against its inports, u
// against their number (x0, atol and p.<name> are checked as for every model).
[[nodiscard]] std::optional<std::string> check_diagram_point(const framework::Condition& c);

// The diagrams a requirement's `model` axis names, each as a figure for the report (the
// compiled plan as Graphviz DOT, simverify diagram --dot), in the axis' order, once each.
[[nodiscard]] std::vector<framework::Figure> diagram_figures(const framework::Requirement& r);

// Load-time check of a measure y.<name> against the diagram's outputs ('terminated', which
// no diagram has, is check_measure_of_models').
[[nodiscard]] std::optional<std::string> check_diagram_measure(const framework::Value& model,
                                                               std::string_view measure);

}  // namespace simverify::components
