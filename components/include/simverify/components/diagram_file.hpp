#pragma once
// Block-diagram files (DIAGRAM-FORMAT.md, docs/diagrams.md): the YAML reader and the
// per-process cache of compiled diagrams that requirements name as `model: path.yaml`.
// Every error is a simulation::diagram::DiagramError whose what() starts with
// file:line:column in the diagram file (or the subsystem file it includes).
#include <simverify/simulation/diagram/diagram_model.hpp>
#include <simverify/simulation/diagram/spec.hpp>

#include <filesystem>
#include <memory>
#include <span>
#include <string>

namespace simverify::components {

// Reads a diagram file and the subsystem files it includes (relative to the including
// file); a file that includes itself, directly or not, is refused.
[[nodiscard]] simulation::diagram::DiagramSpec read_diagram(const std::filesystem::path& file);

// Parses one diagram document's text; `file_name` is used in messages and to resolve
// subsystem files.
[[nodiscard]] simulation::diagram::DiagramSpec parse_diagram(const std::string& text,
                                                             const std::string& file_name);

// read_diagram + compile, once per file and process (the runs of a grid share the plan).
[[nodiscard]] std::shared_ptr<const simulation::diagram::CompiledDiagram> load_diagram(
    const std::filesystem::path& file);

// True for a path ending in .yaml or .yml: a model that is a diagram file.
[[nodiscard]] bool is_diagram_path(const std::string& model);

// `simverify diagram FILE [--dot]` (args after `diagram`): prints the compiled plan, or the
// diagram as Graphviz DOT; 0, or 2 with file:line:column: error: ... on stderr.
int diagram_command(std::span<char* const> args);

}  // namespace simverify::components
