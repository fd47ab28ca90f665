#pragma once
// Internal: the step-response measures of a one-column time series (MATLAB's stepinfo) and
// the signed max/min, applied by evaluate_measure (quality.cpp). Definitions:
// docs/requirements-format.md, "Step response".
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework::step_response {

// One of the reductions below, with the arguments after the measure's name.
[[nodiscard]] bool knows(std::string_view reduction);

// The reductions in the order the docs list them.
[[nodiscard]] const std::vector<std::string>& names();

// What is wrong with the arguments written after the measure's name (their count, a value
// that is no number or out of range), e.g. "settling_time takes the measure and an optional
// band, e.g. settling_time(y.x, 0.05)" with the measure's name in the example; nothing when
// they are fine.
[[nodiscard]] std::optional<std::string> arguments_problem(std::string_view reduction,
                                                           std::string_view name,
                                                           const std::vector<std::string>& args);

// Whether the reduction reads the time axis (and so needs a time series, not a vector).
[[nodiscard]] bool needs_time(std::string_view reduction);

// The reduction of values at times (null: a vector, index i stands for nothing in time).
// NaN when a sample is NaN. Throws std::invalid_argument for fewer than 2 samples, a step
// without change for the relative measures, or malformed arguments. `what` names the
// measure in messages.
[[nodiscard]] double reduce(std::string_view reduction, const std::vector<std::string>& args,
                            const std::vector<double>* times, const std::vector<double>& values,
                            const std::string& what);

}  // namespace simverify::framework::step_response
