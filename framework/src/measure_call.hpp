#pragma once
// Internal: a `measure:` as written, e.g. "rms(y.position)", split into the reduction and the
// measure's name, and the reductions there are. The loader checks both parts before anything
// runs; evaluate_measure (quality.cpp) applies them.
#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework {

// The reductions a measure may apply to a vector or time series.
[[nodiscard]] const std::vector<std::string>& measure_reductions();

struct MeasureCall {
  std::string reduction;  // empty for a plain measure name
  std::string name;
};
[[nodiscard]] MeasureCall split_measure(std::string_view measure);

}  // namespace simverify::framework
