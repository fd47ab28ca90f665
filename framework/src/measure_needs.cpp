#include <simverify/framework/measure_needs.hpp>
#include <simverify/framework/requirement.hpp>

#include <algorithm>

namespace simverify::framework {

MeasureNeeds MeasureNeeds::only(std::vector<std::string> names) {
  MeasureNeeds needs;
  needs.everything_ = false;
  needs.names_ = std::move(names);
  return needs;
}

MeasureNeeds MeasureNeeds::reading(const std::string& measure) {
  Quality quality;
  quality.measure = measure;
  return only({std::string(measured_name(quality))});
}

MeasureNeeds MeasureNeeds::of(const Requirement& r, SeriesOutput series) {
  if (series == SeriesOutput::all) return {};
  std::vector<std::string> names{std::string(measured_name(r.quality))};
  // The report plots the quality's series, else the trajectory (plotted_series.hpp); whether
  // the measure is a series is known only once measured, so the trajectory is asked for.
  if (series == SeriesOutput::quality && names.front() != "trajectory") {
    names.emplace_back("trajectory");
  }
  return only(std::move(names));
}

bool MeasureNeeds::wants(std::string_view measure) const {
  return everything_ || std::find(names_.begin(), names_.end(), measure) != names_.end();
}

bool MeasureNeeds::wants_prefix(std::string_view prefix) const {
  return everything_ || std::any_of(names_.begin(), names_.end(), [&](const std::string& n) {
           return std::string_view(n).starts_with(prefix);
         });
}

}  // namespace simverify::framework
