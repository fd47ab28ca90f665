#include "source_check.hpp"

#include "detail/json.hpp"
#include "detail/json_writer.hpp"
#include "fingerprint.hpp"
#include "plan.hpp"
#include "recorded_measure.hpp"
#include "selection.hpp"

#include <fmt/format.h>

#include <array>
#include <set>
#include <variant>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// At most this many differences are named; a hand-edited file can differ everywhere.
constexpr std::size_t kNamedDifferences = 10;

// What results.json records for `r` before its points, written by the reporter's own code.
Json expected_entry(const Requirement& r) {
  std::string text = "{";
  append_requirement_head(text, r);
  text += "]}";
  return Json::parse(text);
}

std::optional<std::string> definition_difference(const Json& recorded, const Requirement& r) {
  const Json expected = expected_entry(r);
  for (const char* key : kDefinitionKeys) {
    const auto want = expected.find(key);
    const auto have = recorded.find(key);
    const bool want_it = want != expected.end();
    const bool have_it = have != recorded.end();
    if (!want_it && !have_it) continue;
    if (want_it && have_it && *want == *have) continue;
    return fmt::format("its {} is {} in the results, {} at {}", key,
                       have_it ? detail::json_in_sentence(*have) : "absent",
                       want_it ? detail::json_in_sentence(*want) : "absent", r.location.str());
  }
  return std::nullopt;
}

// The first point whose recorded condition is not the grid's, in the reporter's own JSON.
std::optional<std::string> condition_difference(const Json& recorded, const Requirement& r) {
  const Grid& grid = r.conditions;
  const auto& groups = grid.groups();
  // Each group's values at each of its positions, parsed once (not once per point).
  std::vector<std::vector<Json>> values(groups.size());
  std::size_t axis_count = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    axis_count += groups[g].axes.size();
    for (std::size_t position = 0; position < groups[g].size(); ++position) {
      Json at = Json::object();
      for (const auto& axis : groups[g].axes) {
        std::string text;
        detail::append_json(text, axis.values[position], detail::NonFinite::as_text);
        at[axis.name] = Json::parse(text);
      }
      values[g].push_back(std::move(at));
    }
  }
  // The grid's condition at `index`, as the reporter writes it: only for the message.
  const auto expected = [&](std::size_t index) {
    Json at = Json::object();
    for (std::size_t g = 0; g < groups.size(); ++g) {
      for (const auto& [name, value] : values[g][grid.position(index, g)].items()) at[name] = value;
    }
    return at;
  };
  const auto points = recorded.find("points");
  if (points == recorded.end()) return std::nullopt;
  for (const Json& p : *points) {
    const auto index = p["index"].get<std::size_t>();
    if (index >= grid.size()) {
      return fmt::format("grid point {} is outside its grid of {} point(s)", index, grid.size());
    }
    const auto condition = p.find("condition");
    bool same = condition != p.end() && condition->size() == axis_count;
    for (std::size_t g = 0; same && g < groups.size(); ++g) {
      for (const auto& [name, value] : values[g][grid.position(index, g)].items()) {
        const auto have = condition->find(name);
        same = same && have != condition->end() && *have == value;
      }
    }
    if (!same) {
      return fmt::format("grid point {} has the condition {} in the results, {} at {}", index,
                         condition == p.end() ? "absent" : detail::json_in_sentence(*condition),
                         detail::json_in_sentence(expected(index)), r.location.str());
    }
  }
  return std::nullopt;
}

// A `compare:` that reads its reference from a CSV file: results.json records only the file's
// name, so each point's value is decided again against the reference the file holds now (the
// loader's, exactly the run's when the file did not change).
std::optional<std::string> reference_difference(const Json& recorded, const Requirement& r,
                                                const fs::path* results_dir) {
  const auto& comparison = r.quality.comparison;
  const auto points = recorded.find("points");
  if (!comparison || comparison->source == "inline" || points == recorded.end()) {
    return std::nullopt;
  }
  for (const Json& p : *points) {
    const auto value = p.find("value");
    if (value == p.end() || !value->is_number()) continue;
    const auto given = value_from_recorded(p, r.quality.measure, &*comparison, r.id, results_dir);
    if (const auto* why = std::get_if<std::string>(&given)) {
      return fmt::format(
          "grid point {}'s value {} cannot be decided against the reference in {}: "
          "{}",
          p.value("index", 0), value->get<double>(), comparison->source, *why);
    }
    if (const auto* d = std::get_if<double>(&given); d != nullptr && *d != value->get<double>()) {
      return fmt::format(
          "grid point {}'s value {} is not what its measures give against the "
          "reference in {} ({})",
          p.value("index", 0), value->get<double>(), comparison->source, *d);
    }
  }
  return std::nullopt;
}

}  // namespace

SourceFindings check_sources(const Json& doc, const RunSources& sources,
                             const fs::path* results_dir) {
  SourceFindings found;
  const PlanRecord record = plan_record(doc);
  RunOptions narrowed;
  if (!record.level.empty()) {
    narrowed.level = parse_level(record.level);
    if (!narrowed.level) {
      found.checks.push_back(
          {false, fmt::format("the results record an unknown --level '{}'", record.level)});
      return found;
    }
  }
  narrowed.filter = record.filter;
  const Plan planned = make_plan(sources.requirements, narrowed);
  // Def 5.17 speaks of every requirement: a narrowed run shows that only some of them pass.
  if (const std::string narrowed_by = narrowing(record.level, record.filter);
      !narrowed_by.empty()) {
    found.narrowed_detail =
        fmt::format("it planned {} of the {} requirement(s) in {}", planned.size(),
                    make_plan(sources.requirements, RunOptions{}).size(), sources.described);
  }

  std::vector<std::string> differences;
  std::map<std::string, const Requirement*> by_id;
  for (const auto& step : planned.steps) by_id.emplace(step.requirement->id, step.requirement);
  std::set<std::string> recorded_ids;
  for (const Json& entry : doc["requirements"]) {
    const std::string id = entry.value("id", "?");
    if (!recorded_ids.insert(id).second) continue;  // the gate names duplicates itself
    const auto source = by_id.find(id);
    if (source == by_id.end()) {
      found.disputed.emplace(id, fmt::format("it is not planned from {}", sources.described));
      continue;
    }
    auto why = definition_difference(entry, *source->second);
    if (!why && entry.value("status", "") == "passed") {
      why = condition_difference(entry, *source->second);
      if (!why) why = reference_difference(entry, *source->second, results_dir);
    }
    if (why) {
      found.disputed.emplace(
          id, *why + " (the file changed since the run, or results.json was edited)");
    }
  }
  for (const auto& step : planned.steps) {
    const Requirement& r = *step.requirement;
    if (!recorded_ids.contains(r.id)) {
      differences.push_back(
          fmt::format("{} ({}) is planned but missing from the results", r.id, r.location.str()));
    }
  }
  if (differences.empty() && found.disputed.empty()) {
    // Everything results.json shows agrees; what it does not show (a component's own keys,
    // the fail-fast policy) the fingerprint holds.
    const auto text_in = [&doc](const char* object, const char* key, const std::string& fallback) {
      const auto part = doc.find(object);
      return part != doc.end() && part->is_object() ? part->value(key, fallback) : fallback;
    };
    const std::string now = plan_fingerprint(planned, text_in("summary", "fail_fast", "level"),
                                             text_in("plan", "simverify", simverify_version()));
    if (now != record.fingerprint) {
      differences.push_back(fmt::format(
          "the results record the plan fingerprint {}, the requirement files give {} (they "
          "changed since the run, or results.json was edited)",
          record.fingerprint.empty() ? "none" : record.fingerprint, now));
    }
  }
  for (std::size_t i = 0; i < std::min(differences.size(), kNamedDifferences); ++i) {
    found.checks.push_back({false, differences[i]});
  }
  if (differences.size() > kNamedDifferences) {
    found.checks.push_back(
        {false, fmt::format("and {} more difference(s) from {}",
                            differences.size() - kNamedDifferences, sources.described)});
  }
  if (differences.empty() && found.disputed.empty()) {
    found.checks.push_back({true, fmt::format("the results are those of the {} requirement(s) "
                                              "in {}",
                                              planned.size(), sources.described)});
  }
  return found;
}

}  // namespace simverify::framework
