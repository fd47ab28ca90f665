#pragma once
// Which measures a grid point has to produce. A component measures what a requirement reads
// (Alg 9, line 3 needs only Q(gamma(u))): the quality's measure, the series the report plots
// and nothing else, so a requirement on x_end does not pay for a trajectory, every output
// series and a reference solve. Decided once per requirement, before its points run.
#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework {

struct Requirement;

// Which time series results.json keeps beside it as series/<id>/<point>-<name>.csv; the
// others are listed with their size and "file": null. Every series of every point is a lot
// (100 MB for the shipped packs), and the report plots only the first kind.
enum class SeriesOutput {
  quality,  // the series the quality reads, else the state trajectory (the default)
  all,
  none,
};

class MeasureNeeds {
 public:
  // Every measure the component can produce (the default, for callers that inspect them all).
  MeasureNeeds() = default;
  // Only these measures (exact names, e.g. "x_end", "y.speed", "trajectory").
  [[nodiscard]] static MeasureNeeds only(std::vector<std::string> names);
  // Only what the measure expression reads: "y.speed" for "rms(y.speed)".
  [[nodiscard]] static MeasureNeeds reading(const std::string& measure);
  // What running `r` and reporting with `series` reads: the quality's measure (also what
  // compare: and aggregate: read) and, with SeriesOutput::quality, the state trajectory the
  // report plots when that measure is not a series; every measure with SeriesOutput::all.
  [[nodiscard]] static MeasureNeeds of(const Requirement& r, SeriesOutput series);

  [[nodiscard]] bool everything() const { return everything_; }
  [[nodiscard]] bool wants(std::string_view measure) const;
  // Some wanted measure starts with `prefix` ("y." for the output series).
  [[nodiscard]] bool wants_prefix(std::string_view prefix) const;
  [[nodiscard]] const std::vector<std::string>& names() const { return names_; }

 private:
  bool everything_ = true;
  std::vector<std::string> names_;
};

}  // namespace simverify::framework
