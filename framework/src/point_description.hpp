#pragma once
// Internal: a grid point or aggregation group in words, for reasons and the console.
#include <simverify/framework/requirement.hpp>

#include <string>

namespace simverify::framework {

// Whether the axis group `g` holds an axis the requirement aggregates over.
[[nodiscard]] bool is_over(const Requirement& r, const AxisGroup& g);

// "h=0.01, method=ode4": the axes that vary (constant axes add noise); with `group`, without
// the aggregated ones.
[[nodiscard]] std::string describe_point(const Requirement& r, std::size_t index, bool group);

}  // namespace simverify::framework
