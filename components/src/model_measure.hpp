#pragma once
// Internal: a measure y.<name> against the outputs of every model a grid names (built-in,
// diagram or FMU), before anything runs. The quality of `simulate` and the `of:` of the
// studies built on it (study_measure.hpp) are checked with it.
#include <simverify/framework/grid.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace simverify::components {

// The problem with `measure` for some model of `conditions`' `model` axis (and each variant
// or fmi_type written with it): "model 'quarter_car' has no output 'chassis_accel' (did you
// mean ...?); its outputs: ...". Nothing for a built-in model and a measure that is no y.<name>
// (an FMU in co-simulation measures only its outputs and the run), and for a model
// or variant that is unknown (the axis check reports it at its own place).
[[nodiscard]] std::optional<std::string> check_measure_of_models(const framework::Grid& conditions,
                                                                 std::string_view measure);

// The problem with `written` (x_end[<index>]) for some model of `conditions`' `model` axis
// whose state has no element `index`: "x_end[9] is out of range: model 'quarter_car' has 4
// states, so x_end has 4 elements: x_end[0]..x_end[3]". Nothing for a model that is unknown
// (the axis and point checks report it).
[[nodiscard]] std::optional<std::string> check_state_element(const framework::Grid& conditions,
                                                             std::string_view written,
                                                             std::size_t index);

}  // namespace simverify::components
