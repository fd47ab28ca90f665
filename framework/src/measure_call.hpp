#pragma once
// Internal: a `measure:` as written, e.g. "rms(y.position)" or "settling_time(y.speed, 0.05)",
// split into the reduction, the measure's name and the reduction's further arguments (the
// reductions there are: measure_reductions, quality.hpp). The loader checks all parts before
// anything runs; evaluate_measure (quality.cpp) applies them.
#include <simverify/framework/quality.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework {

struct MeasureCall {
  std::string reduction;  // empty for a plain measure name
  std::string name;
  std::vector<std::string> arguments;  // after the name, trimmed: {"0.05"}
};
[[nodiscard]] MeasureCall split_measure(std::string_view measure);

}  // namespace simverify::framework
