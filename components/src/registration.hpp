#pragma once
// Internal: the built-in components, one factory per file.
#include <simverify/framework/component.hpp>

namespace simverify::components {

[[nodiscard]] framework::Component simulate_component();
[[nodiscard]] framework::Component step_component();
[[nodiscard]] framework::Component sensitivity_component();
[[nodiscard]] framework::Component assessment_component();
[[nodiscard]] framework::Component backward_component();
[[nodiscard]] framework::Component scenario_component();
[[nodiscard]] framework::Component monte_carlo_component();
[[nodiscard]] framework::Component command_component();

// A component built on `simulate` (sensitivity, assessment, backward, scenario, monte_carlo):
// simulate's conditions and their checks, plus `own_axes` checked by `check_own`. It is
// evaluated in its point's context, whose requirement id keys the noise streams.
[[nodiscard]] framework::Component extend_simulate(std::string name, std::string description,
                                                   std::vector<std::string> own_axes,
                                                   std::vector<std::string> measures,
                                                   framework::EvaluateInContext evaluate,
                                                   framework::AxisCheck check_own);

// Checks one condition value before anything runs: unknown model, variant, method and
// parameter names (listing the known ones), malformed inputs `u`, and mistyped numbers,
// flags and vectors of the well-known axes.
[[nodiscard]] std::optional<framework::AxisProblem> check_simulation_axis(
    std::string_view axis, const framework::Value& v);

// Checks the conditions of one grid point that must fit together: the model exists with its
// variant, has every p.<name>, and as many states as x0 (and a per-state atol) have values;
// and the simulator accepts the point's settings (method, h, sample_time, t0, tf).
[[nodiscard]] std::optional<std::string> check_simulation_point(const framework::Condition& c);
[[nodiscard]] framework::ConditionCheck simulation_point_check();

// What an unknown condition name meant when a model of the grid knows it: a parameter
// written without `p.` (" (did you mean 'p.lambda'?)"), a state name for x0; else "".
[[nodiscard]] std::string simulation_axis_hint(std::string_view name,
                                               const framework::Grid& conditions);

}  // namespace simverify::components
