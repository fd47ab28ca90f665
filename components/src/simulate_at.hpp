#pragma once
// Internal: one run of `simulate` at a condition with some axes replaced or added, for the
// components that evaluate a simulation many times at one grid point (scenario, monte_carlo).
#include "study_measure.hpp"

#include <simverify/framework/component.hpp>
#include <simverify/framework/grid.hpp>
#include <simverify/framework/value.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simverify::components {

using Overrides = std::vector<std::pair<std::string, framework::Value>>;

// The measure `measure` (e.g. rms(y.chassis_acceleration), study_measure.hpp) of `simulate`
// run at `c` with the axes in `own_axes` (the calling component's) left out and `overrides`
// applied, as a point of the calling point's requirement (which keys its noise streams).
[[nodiscard]] double simulate_measure(const framework::Condition& c,
                                      std::span<const std::string_view> own_axes,
                                      const Overrides& overrides, const StudyMeasure& measure,
                                      const framework::PointContext& context);

// Load-time check of an axis a study sets itself (a scenario's override, a perturbed
// input): one `simulate` accepts, with a value its check accepts.
[[nodiscard]] std::optional<framework::AxisProblem> check_simulate_override(
    std::string_view axis, const framework::Value& v);

}  // namespace simverify::components
