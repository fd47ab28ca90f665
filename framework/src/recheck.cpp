#include "recheck.hpp"

#include "detail/interrupt_guard.hpp"
#include "executor.hpp"
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

using Json = nlohmann::ordered_json;

// A re-evaluated value agrees with the recorded one to this relative difference. The same
// binary on another CPU may take other code paths in libm (glibc picks FMA variants at run
// time): an ulp (2.2e-16) apart, amplified through a simulation by up to 1e10 still agrees,
// and no verdict turns on the seventh digit.
constexpr double kAgreement = 1e-6;

bool agrees(double recorded, double again) {
  if (std::isnan(recorded) || std::isnan(again)) return std::isnan(recorded) && std::isnan(again);
  if (recorded == again) return true;  // also equal infinities
  return std::abs(recorded - again) <= kAgreement * std::max(std::abs(recorded), std::abs(again));
}

std::string recorded_text(const Json& value) {
  return value.is_number() ? fmt::format("{:.17g}", value.get<double>()) : value.dump();
}

}  // namespace

RecheckFindings recheck_points(const ResultsJson& doc, const RunSources& sources,
                               const ComponentRegistry& registry, std::size_t per_requirement,
                               std::ostream* progress) {
  RecheckFindings found;
  std::map<std::string, const Requirement*> by_id;
  for (const auto& r : sources.requirements) by_id.emplace(r.id, &r);
  std::random_device entropy;  // not reproducible on purpose: nobody knows which points
  std::mt19937_64 draw((static_cast<std::uint64_t>(entropy()) << 32U) ^ entropy());
  RunOptions options;  // worker processes, as the run evaluates points; only what they read
  options.series = SeriesOutput::none;
  // Ctrl-C stops between points and kills the workers; nothing is decided then.
  const detail::InterruptGuard interrupt_guard;
  options.stop = &interrupt_guard.flag();
  options.jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));

  // The draw first, so the console can say how much is to come.
  struct Drawn {
    const Requirement* requirement;
    const Component* component;
    PointsByIndex recorded;
    std::vector<std::size_t> chosen;
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
    Drawn d{source->second, component, {}, {}};
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
    evaluated += d.chosen.size();
    drawn.push_back(std::move(d));
  }
  if (progress != nullptr) {
    fmt::print(*progress, "gate: evaluating {} point(s) of {} requirement(s) again\n", evaluated,
               drawn.size());
  }

  for (const Drawn& d : drawn) {
    std::string why;
    const bool finished = evaluate_in_processes(
        *d.component, *d.requirement, d.chosen, options, [&](PointResult& again) {
          if (!why.empty()) return;
          const Json value = d.recorded.at(again.index)->value("value", Json());
          if (again.error) {
            why = fmt::format(
                "grid point {} re-evaluated gives an error ({}), results.json records "
                "the value {}",
                again.index, *again.error, recorded_text(value));
          } else if (!value.is_number() || !again.value ||
                     !agrees(value.get<double>(), *again.value)) {
            why = fmt::format(
                "grid point {} re-evaluated gives the value {:.17g}, results.json "
                "records {} (edited after the run?)",
                again.index, again.value.value_or(std::nan("")), recorded_text(value));
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
                           "give the values results.json records",
                           evaluated, drawn.size())});
  }
  return found;
}

}  // namespace simverify::framework
