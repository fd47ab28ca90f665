#pragma once
// Quality (Def 5.4): which measure, how it is reduced to a number, optionally aggregated over
// grid axes, and the threshold it must meet (Def 5.17).
#include <simverify/framework/compare.hpp>
#include <simverify/framework/measurement.hpp>
#include <simverify/framework/value.hpp>

#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {

struct Threshold {
  enum class Relation { at_least, at_most };  // ">= Q_min" or "<= Q_max"
  Relation relation = Relation::at_least;
  double bound = 0.0;

  // NaN never satisfies a threshold.
  [[nodiscard]] bool satisfied(double quality) const;
  // Signed distance to the bound, positive on the passing side.
  [[nodiscard]] double margin(double quality) const;
  [[nodiscard]] std::string str() const;  // ">= 3.9"
  // Parses ">= 3.9", "<=1e-6"; nothing on malformed text.
  static std::optional<Threshold> parse(std::string_view text);
};

struct Statistic {
  enum class Kind {
    mean,
    max,
    min,
    median,
    std,
    range,
    quantile,
    ci_upper,
    ci_lower,
    fraction_le,
    order,
    weighted_mean,
    weighted_fraction_le,
    weighted_quantile
  };
  Kind kind = Kind::mean;
  // q of quantile(q) and weighted_quantile(q), level of ci_*(level), x of fraction(<= x) and
  // weighted_fraction(<= x)
  double parameter = 0.0;
  // The weighted statistics read each value's weight from the aggregate's `weight` axis.
  [[nodiscard]] bool weighted() const {
    return kind == Kind::weighted_mean || kind == Kind::weighted_fraction_le ||
           kind == Kind::weighted_quantile;
  }
  [[nodiscard]] std::string str() const;
  static std::optional<Statistic> parse(std::string_view text);
};

struct Aggregate {
  std::vector<std::string> over;  // grid axes grouped over
  Statistic statistic;
  // The condition axis holding each point's weight (weighted statistics only; empty
  // otherwise). It varies with an `over` axis: is one of them or is zipped with one.
  std::string weight;
};

struct Quality {
  std::string measure;                   // e.g. "error_end", "rms(y.chassis_acc)"
  SourceLocation measure_location;       // where `measure:` was written (line 0: unknown)
  std::optional<Value> compare;          // reference comparison as written (see compare.hpp)
  std::optional<Comparison> comparison;  // ... and as parsed by the loader
  std::optional<Aggregate> aggregate;
  Threshold threshold;
};

// The reductions a measure may apply to a vector or time series: final, max_abs, rms, the
// signed max and min, and the step-response measures (peak, peak_time, overshoot,
// undershoot, rise_time, settling_time, steady_state_error).
[[nodiscard]] const std::vector<std::string>& measure_reductions();

// What is wrong with the arguments of a measure's known reduction as written: their count
// or a value ("settling_time(y.x, 2)": the band is a fraction); nothing when they are fine,
// when there is no reduction or when it is unknown (the caller names the known ones).
[[nodiscard]] std::optional<std::string> reduction_arguments_problem(std::string_view measure);

// The number a measure yields at one point: a scalar as is; a reduction of a vector or time
// series (a NaN sample gives NaN, which fails). Throws std::invalid_argument when the
// measure is missing, is not reducible to a number, or a step-response measure cannot be
// taken (fewer than 2 samples, a step without change).
[[nodiscard]] double evaluate_measure(const Measurement& measurement, const std::string& measure);

// The measure a quality reads: "y.chassis_acc" for "rms(y.chassis_acc)" and for
// "settling_time(y.chassis_acc, 0.05)", the name itself otherwise.
[[nodiscard]] std::string_view measured_name(const Quality& quality);

// Why a point's quality is NaN, for its error: "the quality is NaN" and, when the measure it
// reads holds a NaN, where ("y.s is NaN at index 1 (t = 1)"): a program's null, a model's
// overflow.
[[nodiscard]] std::string nan_quality_reason(const Measurement& measurement,
                                             const Quality& quality);

// The number one grid point contributes (Alg 9, line 3): the compared distance when the
// quality has `compare:`, otherwise evaluate_measure(). Throws like evaluate_measure.
[[nodiscard]] double point_value(const Measurement& measurement, const Quality& quality);

}  // namespace simverify::framework
