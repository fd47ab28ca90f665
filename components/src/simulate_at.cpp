#include "simulate_at.hpp"

#include "registration.hpp"

#include <algorithm>

namespace simverify::components {

double simulate_measure(const framework::Condition& c, std::span<const std::string_view> own_axes,
                        const Overrides& overrides, const StudyMeasure& measure,
                        const framework::PointContext& context) {
  const auto overridden = [&](std::string_view name) {
    return std::find_if(overrides.begin(), overrides.end(),
                        [&](const auto& o) { return o.first == name; });
  };
  framework::Grid grid;
  for (const auto& [name, value] : c.entries()) {
    if (std::find(own_axes.begin(), own_axes.end(), name) != own_axes.end()) continue;
    const auto o = overridden(name);
    grid.add_group(
        {{framework::Axis{std::string(name), {o != overrides.end() ? o->second : *value}, {}}}});
  }
  for (const auto& [name, value] : overrides) {
    if (grid.find_axis(name) == nullptr) grid.add_group({{framework::Axis{name, {value}, {}}}});
  }
  static const framework::Component simulate = simulate_component();
  // Only the measure read: a scenario's rms(y.a) records one output, no reference solve.
  const auto needs = study_measure_needs(measure);
  return study_measure_value(
      simulate.measure(grid.point(0), {.requirement = context.requirement, .needs = &needs}),
      measure);
}

std::optional<framework::AxisProblem> check_simulate_override(std::string_view axis,
                                                              const framework::Value& v) {
  static const framework::Component simulate = simulate_component();
  if (!simulate.accepts_axis(axis)) {
    // (append, not operator+: g++ 12 reports a false -Wrestrict for "'" + std::string)
    return std::string("'").append(axis).append("' is not a condition of simulate");
  }
  return check_simulation_axis(axis, v);
}

}  // namespace simverify::components
