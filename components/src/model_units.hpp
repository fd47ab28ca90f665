#pragma once
// Internal: the units a requirement's names carry, from the models its `model` axis names
// (ModelInfo's state, output, parameter and time units), for the report (component.hpp, Units).
#include <simverify/framework/component.hpp>
#include <simverify/framework/requirement.hpp>

namespace simverify::components {

// x.<state>, y.<output>, p.<parameter>, t and the time-valued axes and measures (tf, h,
// t_end, event_times, ...), and the quality's measure as written when its unit follows from
// those. A name whose unit differs between the models of the grid is left out, as is every
// name of a model that cannot be built (validate reports that).
[[nodiscard]] framework::UnitMap model_units(const framework::Requirement& r);

}  // namespace simverify::components
