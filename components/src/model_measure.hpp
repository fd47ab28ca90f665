#pragma once
// Internal: a measure y.<name> against the outputs of every model a grid names (built-in,
// diagram or FMU), before anything runs. The quality of `simulate` and the `of:` of the
// studies built on it (study_measure.hpp) are checked with it.
#include <simverify/framework/grid.hpp>

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

}  // namespace simverify::components
