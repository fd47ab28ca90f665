#pragma once
// Internal: the `of:` of the studies built on `simulate` (sensitivity, monte_carlo,
// scenario), the number each of their runs yields, in one of three forms for all of them:
//   a number simulate measures            error_end, event_count, t_end
//   a vector or series reduced            final(event_times), rms(y.chassis_acceleration)
//   one element of a vector (0-based)     event_times[0], x_end[1]
// A misspelt `of:` is a load-time error with the nearest measure of simulate (or output of
// the model) and the list, before anything runs.
#include <simverify/framework/component.hpp>
#include <simverify/framework/diagnostics.hpp>
#include <simverify/framework/measure_needs.hpp>
#include <simverify/framework/measurement.hpp>
#include <simverify/framework/requirement.hpp>
#include <simverify/framework/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace simverify::components {

struct StudyMeasure {
  std::string written;               // as in the file, e.g. "event_times[0]"
  std::string reduction;             // one of measure_reductions(); empty: none
  std::string name;                  // the measure of simulate, e.g. "event_times"
  std::optional<std::size_t> index;  // the element of a vector measure
};

// `of` in one of the forms. Throws std::invalid_argument naming the forms, or a misspelt
// reduction or measure of simulate with did-you-mean and the known names.
[[nodiscard]] StudyMeasure parse_study_measure(std::string_view of);

// An `of:` value as the study's AxisCheck judges it (a measure of simulate in one of the
// forms); nothing when it is one.
[[nodiscard]] std::optional<framework::AxisProblem> check_study_measure(const framework::Value& of);

// What each run of the study measures: the measure `of` reads, nothing else (no trajectory,
// no unread reference solve).
[[nodiscard]] framework::MeasureNeeds study_measure_needs(const StudyMeasure& of);

// The number `of` stands for in one run's measurement. Throws std::invalid_argument: an
// element beyond the vector, a measure the run did not give.
[[nodiscard]] double study_measure_value(const framework::Measurement& m, const StudyMeasure& of);

// A study's RequirementCheck: `of:` is given, and each y.<name> it reads is an output of
// every model of the grid; each problem at the `of:` value.
[[nodiscard]] framework::Diagnostics check_study_outputs(const framework::Requirement& r);

}  // namespace simverify::components
