#include "recorded_pass.hpp"

#include "measure_call.hpp"
#include "recorded_measure.hpp"
#include "retally.hpp"

#include <simverify/framework/compare.hpp>
#include <simverify/framework/quality.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>
#include <variant>
#include <vector>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

[[noreturn]] void malformed_points(const std::string& label) {
  throw std::runtime_error(fmt::format(
      "{}: \"grid_size\" must be a count and every point an object with a boolean \"passed\"",
      label));
}

// The entry's points, without a copy of them (a results file may hold millions); an entry
// without "points" has none.
const Json& points_of(const Json& r) {
  static const Json no_points = Json::array();
  const auto found = r.find("points");
  return found == r.end() ? no_points : *found;
}

// Every grid point evaluated and each (or each group when aggregated) met its threshold.
std::optional<std::string> inconsistency(const Json& r) {
  const Json& points = points_of(r);
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
// The status the recorded points give (retally), or the reason they cannot be decided; nothing
// for files without the grid's shape.
std::optional<std::pair<std::string, Json>> decided_again(const Json& r, const std::string& label) {
  if (!r.contains("axis_groups")) return std::nullopt;
  PointsByIndex points;
  for (const auto& p : points_of(r)) {
    const auto index = p["index"].get<std::size_t>();
    if (!points.emplace(index, &p).second) {
      return std::pair{std::string("listed twice"), Json(index)};
    }
  }
  Json decided = retally(r, points, label);
  return std::pair{decided["status"].get<std::string>(), std::move(decided)};
}

std::optional<std::string> recomputed_disagrees(const Json& r, const std::string& label) {
  const auto decided = decided_again(r, label);
  if (!decided || decided->first == "passed") return std::nullopt;
  if (decided->first == "listed twice") {
    return fmt::format("grid point {} is listed twice (results.json was edited?)",
                       decided->second.get<std::size_t>());
  }
  return fmt::format("its points say {}: {} (results.json was edited after the run?)",
                     decided->first, decided->second["reason"].get<std::string>());
}

// The requirement's `compare:` as results.json records it, when the file alone holds it: a
// reference of numbers written inline (a CSV reference is not re-read).
std::optional<Comparison> inline_comparison(const Json& compare) {
  if (!compare.is_object() || !compare.contains("reference")) return std::nullopt;
  const Json& reference = compare["reference"];
  Comparison c;
  c.source = "inline";
  if (reference.is_number()) {
    c.reference = {reference.get<double>()};
  } else if (is_number_list(reference)) {
    c.reference = reference.get<std::vector<double>>();
  } else {
    return std::nullopt;
  }
  const Json norm = compare.value("norm", Json("max_abs"));
  const auto named = norm.is_string() ? norm_named(norm.get<std::string>()) : std::nullopt;
  if (!named) return std::nullopt;
  c.norm = *named;
  if (compare.contains("tube")) {
    const Json& tube = compare["tube"];
    if (!tube.is_object()) return std::nullopt;
    Tube t;
    for (auto [key, into] : {std::pair{"abs", &t.abs}, {"rel", &t.rel}, {"time", &t.time}}) {
      if (!tube.contains(key)) continue;
      if (!tube[key].is_number()) return std::nullopt;
      *into = tube[key].get<double>();
    }
    c.tube = t;
  }
  return c;
}

// A point's recorded value must be what its recorded measures give (the runner's functions on
// the same doubles, so exactly the runner's value): a "value" edited with its "quality" and
// "passed" but not its measures is caught. A `compare:` whose reference the file does not hold
// (a CSV) leaves the values unchecked.
std::optional<std::string> value_disagrees(const Json& r, const fs::path* results_dir) {
  const Json& points = points_of(r);
  if (!points.is_array()) return std::nullopt;
  const std::string measure = r.value("measure", std::string());
  const auto compare = r.find("compare");
  std::optional<Comparison> comparison;
  if (compare != r.end() && !compare->is_null()) {
    comparison = inline_comparison(*compare);
    if (!comparison) return std::nullopt;
  }
  for (const auto& p : points) {
    const auto value_entry = p.find("value");
    if (value_entry == p.end() || !value_entry->is_number()) continue;
    const double value = value_entry->get<double>();
    const auto expected = value_from_recorded(p, measure, comparison ? &*comparison : nullptr,
                                              r.value("id", std::string()), results_dir);
    if (const auto* why = std::get_if<std::string>(&expected)) {
      return fmt::format("grid point {}'s value {} cannot be decided again: {}",
                         p.value("index", 0), value, *why);
    }
    if (const auto* given = std::get_if<double>(&expected); given != nullptr && *given != value) {
      return fmt::format(
          "grid point {}'s value {} is not what its measures give ({}) (results.json was "
          "edited after the run?)",
          p.value("index", 0), value, *given);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> unsupported_failure(const ResultsJson& r, const std::string& label) {
  try {
    const auto decided = decided_again(r, label);
    if (!decided || decided->first != "passed") return std::nullopt;
  } catch (const Json::type_error&) {
    malformed_points(label);
  }
  return std::string("its points say passed (results.json was edited after the run?)");
}

std::optional<std::string> unsupported_pass(const ResultsJson& r, const std::string& label,
                                            const fs::path* results_dir) {
  try {
    if (auto why = inconsistency(r)) return why;
  } catch (const Json::type_error&) {
    malformed_points(label);
  }
  if (auto why = recorded_value_disagrees(r, label, results_dir)) return why;
  return recomputed_disagrees(r, label);
}

std::optional<std::string> recorded_value_disagrees(const ResultsJson& r, const std::string& label,
                                                    const fs::path* results_dir) {
  try {
    return value_disagrees(r, results_dir);
  } catch (const Json::type_error&) {
    malformed_points(label);
  }
}

}  // namespace simverify::framework
