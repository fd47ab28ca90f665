#include "recorded_pass.hpp"

#include "measure_call.hpp"
#include "retally.hpp"

#include <simverify/framework/quality.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

namespace simverify::framework {
namespace {

using Json = nlohmann::ordered_json;

// Every grid point evaluated and each (or each group when aggregated) met its threshold.
std::optional<std::string> inconsistency(const Json& r) {
  const auto& points = r.value("points", Json::array());
  if (!points.is_array()) return std::string("its \"points\" are not a list");
  const std::size_t grid = r.value("grid_size", points.size());
  if (points.size() != grid) {
    return fmt::format("{} of {} grid points were evaluated", points.size(), grid);
  }
  if (r.contains("groups") && r["groups"].is_array() && r.contains("aggregate")) {
    const auto& groups = r["groups"];
    for (std::size_t i = 0; i < groups.size(); ++i) {
      if (!groups[i].value("passed", false)) {
        return fmt::format("group {} failed its threshold", i);
      }
    }
    if (r["groups"].empty()) return std::string("no group was evaluated");
    return std::nullopt;
  }
  for (const auto& p : points) {
    if (!p.value("passed", false)) {
      return fmt::format("grid point {} failed its threshold", p.value("index", 0));
    }
  }
  return std::nullopt;
}

// The points decided again must give the verdict the file records. Files without the grid's
// shape (written before simverify recorded `axis_groups`) get the checks of inconsistency()
// only.
std::optional<std::string> recomputed_disagrees(const Json& r, const std::string& label) {
  if (!r.contains("axis_groups")) return std::nullopt;
  std::map<std::size_t, Json> points;
  for (const auto& p : r.value("points", Json::array())) {
    const auto index = p["index"].get<std::size_t>();
    if (!points.emplace(index, p).second) {
      return fmt::format("grid point {} is listed twice (results.json was edited?)", index);
    }
  }
  const Retally again = retally(r, std::move(points), label);
  const std::string status = again.decided["status"].get<std::string>();
  if (status == "passed") return std::nullopt;
  return fmt::format("its points say {}: {} (results.json was edited after the run?)", status,
                     again.decided["reason"].get<std::string>());
}

// What a point's measures, as results.json records them inline (numbers and lists of
// numbers), give for the requirement's measure: evaluate_measure on the same doubles, so
// exactly the runner's value. Nothing when it cannot be told from the file alone: a compared
// measure, a series kept in a CSV file, a measure not recorded.
std::optional<double> value_from_measures(const Json& point, const std::string& measure) {
  const std::string name = split_measure(measure).name;
  const Json measures = point.value("measures", Json::object());
  if (!measures.is_object() || !measures.contains(name)) return std::nullopt;
  const Json& recorded = measures[name];
  Measurement measurement;
  if (recorded.is_number()) {
    measurement.set(name, recorded.get<double>());
  } else if (recorded.is_array() && !recorded.empty() &&
             std::all_of(recorded.begin(), recorded.end(),
                         [](const Json& x) { return x.is_number(); })) {
    measurement.set(name, recorded.get<std::vector<double>>());
  } else {
    return std::nullopt;
  }
  try {
    return evaluate_measure(measurement, measure);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

// A point's recorded value must be what its recorded measures give: a "value" edited with
// its "quality" and "passed" but not its measures is caught.
std::optional<std::string> value_disagrees(const Json& r) {
  if (r.contains("compare") && !r["compare"].is_null()) return std::nullopt;
  const std::string measure = r.value("measure", std::string());
  for (const auto& p : r.value("points", Json::array())) {
    const Json value = p.value("value", Json());
    if (!value.is_number()) continue;
    const auto expected = value_from_measures(p, measure);
    if (expected && *expected != value.get<double>()) {
      return fmt::format(
          "grid point {}'s value {} is not what its measures give ({}) (results.json was "
          "edited after the run?)",
          p.value("index", 0), value.get<double>(), *expected);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> unsupported_pass(const ResultsJson& r, const std::string& label) {
  try {
    if (auto why = inconsistency(r)) return why;
    if (auto why = value_disagrees(r)) return why;
  } catch (const Json::type_error&) {
    throw std::runtime_error(fmt::format(
        "{}: \"grid_size\" must be a count and every point an object with a boolean \"passed\"",
        label));
  }
  return recomputed_disagrees(r, label);
}

}  // namespace simverify::framework
