#pragma once
// Internal: the component's check of conditions that must fit together (a model and its
// parameters, the state dimension and x0), run over a loaded grid before anything runs.
#include <simverify/framework/component.hpp>
#include <simverify/framework/diagnostics.hpp>
#include <simverify/framework/requirement.hpp>

#include <optional>

namespace simverify::framework::loader {

// The first point of r's grid the component's ConditionCheck rejects, located at the value to
// blame, or at `conditions` (where `conditions:` was written) when no single value is.
[[nodiscard]] std::optional<Diagnostic> check_grid_points(const Requirement& r,
                                                          const Component& component,
                                                          const SourceLocation& conditions);

}  // namespace simverify::framework::loader
