#pragma once
// `compare:` in a quality (format page): turns a measured vector or time series into one
// number, its distance from a reference (Def 5.4: a quality function maps a measurement to a
// number). With a tolerance tube it yields the largest violation of the tube instead.
#include <simverify/framework/measurement.hpp>
#include <simverify/framework/value.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace simverify::framework {

struct Tube {
  double abs = 0.0;   // allowed absolute deviation
  double rel = 0.0;   // allowed deviation relative to |reference|
  double time = 0.0;  // allowed shift in time: any reference sample within +-time counts
};

struct Comparison {
  enum class Norm { max_abs, rms, max_rel };
  std::vector<double> reference;
  std::vector<double> reference_time;  // from a CSV time column (`t` or `time`); else empty
  Norm norm = Norm::max_abs;
  std::optional<Tube> tube;  // when set, the quality is the largest tube violation (0 inside)
  std::string source;        // "inline" or the CSV file, for messages
};

[[nodiscard]] const char* to_string(Comparison::Norm norm);
// The norm a name gives (to_string's inverse); nothing for an unknown name.
[[nodiscard]] std::optional<Comparison::Norm> norm_named(std::string_view name);

struct CompareError {
  SourceLocation location;
  std::string message;
};

// Parses a `compare:` mapping; `base_dir` is the folder of the YAML file, against which CSV
// paths are resolved. Reads the CSV now, so a missing file or column is a load error.
[[nodiscard]] std::variant<Comparison, CompareError> parse_comparison(
    const Value& spec, const std::filesystem::path& base_dir);

// The distance of `measured` from the reference. Vectors compare element by element (equal
// lengths); a time series needs exactly one column and is interpolated linearly at the
// reference times when the reference has them. Throws std::invalid_argument on a mismatch.
[[nodiscard]] double compare_measure(const Measure& measured, const Comparison& comparison);

}  // namespace simverify::framework
