#include "recheck.hpp"

#include "detail/interrupt_guard.hpp"
#include "executor.hpp"
#include "plotted_series.hpp"
#include "recheck_agreement.hpp"
#include "recorded_measure.hpp"
#include "retally.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <random>
#include <stdexcept>
#include <thread>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string recorded_text(const Json& value) {
  return value.is_number() ? fmt::format("{:.17g}", value.get<double>()) : value.dump();
}

// The --series the run had, as far as these points show it: each series it stored as CSV must
// be computed again. The quality's own series is computed whatever the choice.
SeriesOutput series_stored(const Requirement& r, const std::vector<const Json*>& points) {
  SeriesOutput series = SeriesOutput::none;
  for (const Json* p : points) {
    const auto measures = p->find("measures");
    if (measures == p->end() || !measures->is_object()) continue;
    const std::string plotted =
        plotted_series(measured_name(r.quality), measures->items(),
                       [](const Json& m) { return m.is_object() && m.contains("samples"); });
    for (const auto& [name, m] : measures->items()) {
      if (!names_stored_file(m)) continue;
      if (name != plotted) return SeriesOutput::all;
      series = SeriesOutput::quality;
    }
  }
  return series;
}

}  // namespace

RecheckFindings recheck_points(const ResultsJson& doc, const fs::path& results_dir,
                               const RunSources& sources, const ComponentRegistry& registry,
                               std::size_t per_requirement, double timeout_seconds,
                               std::ostream* progress) {
  RecheckFindings found;
  std::map<std::string, const Requirement*> by_id;
  for (const auto& r : sources.requirements) by_id.emplace(r.id, &r);
  std::random_device entropy;  // not reproducible on purpose: nobody knows which points
  std::mt19937_64 draw((static_cast<std::uint64_t>(entropy()) << 32U) ^ entropy());
  RunOptions options;  // worker processes, as the run evaluates points; only what they read
  // Ctrl-C stops between points and kills the workers; nothing is decided then.
  const detail::InterruptGuard interrupt_guard;
  options.stop = &interrupt_guard.flag();
  options.jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  options.timeout_seconds = timeout_seconds;

  // The draw first, so the console can say how much is to come.
  struct Drawn {
    const Requirement* requirement;
    const Component* component;
    PointsByIndex recorded;
    std::vector<std::size_t> chosen;
    SeriesOutput series = SeriesOutput::none;
  };
  std::vector<Drawn> drawn;
  std::size_t evaluated = 0;
  for (const Json& entry : doc["requirements"]) {
    if (entry.value("status", "") != "passed") continue;
    const auto source = by_id.find(entry.value("id", "?"));
    const auto points = entry.find("points");
    if (source == by_id.end() || points == entry.end() || points->empty()) continue;
    const Component* component = registry.find(source->second->component);
    if (component == nullptr) continue;  // the loader refused it already
    Drawn d{source->second, component, {}, {}, SeriesOutput::none};
    for (const Json& p : *points) d.recorded.emplace(p["index"].get<std::size_t>(), &p);
    std::vector<std::size_t> indices;
    indices.reserve(d.recorded.size());
    for (const auto& [index, p] : d.recorded) {
      // A point outside the files' grid (results of other files) is named by source_check.
      if (index < d.requirement->conditions.size()) indices.push_back(index);
    }
    // Selection sampling: every subset of the size equally likely, in grid order.
    const auto wanted = static_cast<std::ptrdiff_t>(std::min(per_requirement, indices.size()));
    std::sample(indices.begin(), indices.end(), std::back_inserter(d.chosen), wanted, draw);
    std::vector<const Json*> chosen_points;
    for (const std::size_t index : d.chosen) chosen_points.push_back(d.recorded.at(index));
    d.series = series_stored(*d.requirement, chosen_points);
    evaluated += d.chosen.size();
    drawn.push_back(std::move(d));
  }
  if (progress != nullptr) {
    fmt::print(*progress, "gate: evaluating {} point(s) of {} requirement(s) again\n", evaluated,
               drawn.size());
  }

  for (const Drawn& d : drawn) {
    std::string why;
    options.series = d.series;
    const bool finished = evaluate_in_processes(
        *d.component, *d.requirement, d.chosen, options, [&](PointResult& again) {
          if (!why.empty()) return;
          const Json& recorded = *d.recorded.at(again.index);
          const Json value = recorded.value("value", Json());
          if (again.error) {
            why = fmt::format(
                "grid point {} re-evaluated gives an error ({}), results.json records "
                "the value {}",
                again.index, *again.error, recorded_text(value));
          } else if (!value.is_number() || !again.value ||
                     !agrees_again(value.get<double>(), *again.value)) {
            why = fmt::format(
                "grid point {} re-evaluated gives the value {:.17g}, results.json "
                "records {} (edited after the run?)",
                again.index, again.value.value_or(std::nan("")), recorded_text(value));
          } else if (const auto differs =
                         measures_disagreement(results_dir, d.requirement->id, again.index,
                                               recorded.value("measures", Json()), again.measures,
                                               measured_name(d.requirement->quality))) {
            why = fmt::format("grid point {} re-evaluated: {} (edited after the run?)", again.index,
                              *differs);
          }
        });
    if (!finished) {
      throw std::runtime_error("the re-evaluation was interrupted: nothing was decided");
    }
    if (!why.empty()) found.disputed.emplace(d.requirement->id, why);
  }
  if (found.disputed.empty()) {
    found.checks.push_back(
        {true, fmt::format("{} point(s) of {} requirement(s), drawn at random and re-evaluated, "
                           "give the values and series results.json records",
                           evaluated, drawn.size())});
  }
  return found;
}

}  // namespace simverify::framework
