#pragma once
// Internal: a `measure:` as written, e.g. "rms(y.position)", split into the reduction and the
// measure's name (the reductions there are: measure_reductions, quality.hpp). The loader
// checks both parts before anything runs; evaluate_measure (quality.cpp) applies them.
#include <simverify/framework/quality.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework {

struct MeasureCall {
  std::string reduction;  // empty for a plain measure name
  std::string name;
};
[[nodiscard]] MeasureCall split_measure(std::string_view measure);

}  // namespace simverify::framework
