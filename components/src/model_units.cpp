#include "model_units.hpp"

#include "conditions.hpp"

#include <simverify/framework/quality.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>
#include <string_view>

namespace simverify::components {
namespace {

using framework::UnitMap;

// Axes and measures that hold a time (or a time step) of the run.
constexpr std::array<std::string_view, 9> kTimeNames = {
    "t", "t0", "tf", "h", "sample_time", "max_step", "t_end", "event_times", "hold"};

// Collects one model's units; a name that already has another unit becomes ambiguous.
class UnitCollector {
 public:
  void add(const std::string& name, const std::string& unit) {
    if (unit.empty() || ambiguous_.contains(name)) return;
    const auto [it, inserted] = units_.emplace(name, unit);
    if (!inserted && it->second != unit) {
      units_.erase(it);
      ambiguous_.insert(name);
    }
  }

  void add(const simulation::ModelInfo& info) {
    for (const std::string_view name : kTimeNames) add(std::string(name), info.time_unit);
    for (std::size_t i = 0; i < info.states.size() && i < info.state_units.size(); ++i)
      add("x." + info.states[i], info.state_units[i]);
    for (std::size_t i = 0; i < info.outputs.size() && i < info.output_units.size(); ++i)
      add("y." + info.outputs[i], info.output_units[i]);
    for (const auto& p : info.parameters) add("p." + p.name, p.unit);
    // x_end and the error measures are vectors over the states: one unit when they share it.
    const std::set<std::string> state_units(info.state_units.begin(), info.state_units.end());
    const bool one_unit = state_units.size() == 1 && info.state_units.size() == info.states.size();
    for (const char* name : {"x_end", "error_end", "error_max"}) {
      if (one_unit) {
        add(name, *state_units.begin());
      } else {
        forget(name);  // another model's unit for it would not hold here
      }
    }
  }

  void forget(const std::string& name) {
    units_.erase(name);
    ambiguous_.insert(name);
  }

  [[nodiscard]] UnitMap take() && { return std::move(units_); }

 private:
  UnitMap units_;
  std::set<std::string, std::less<>> ambiguous_;
};

// Distinct (model, variant) pairs, each built once; stops scanning once every pair was seen.
void collect_models(const framework::Requirement& r, UnitCollector& collector) {
  const framework::Grid& grid = r.conditions;
  const framework::Axis* models = grid.find_axis("model");
  if (models == nullptr) return;
  const framework::Axis* variants = grid.find_axis("variant");
  const std::size_t pairs = models->values.size() * (variants ? variants->values.size() : 1);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < grid.size() && seen.size() < pairs; ++i) {
    const framework::Condition c = grid.point(i);
    const framework::Value* variant = c.find("variant");
    const std::string key = c.at("model").str() + '\n' + (variant ? variant->str() : "");
    if (!seen.insert(key).second) continue;
    try {
      collector.add(model_for(c, r.id)->info());
    } catch (const std::exception&) {
      // validate refused this point already; its model contributes no units
    }
  }
}

}  // namespace

UnitMap model_units(const framework::Requirement& r) {
  UnitCollector collector;
  collect_models(r, collector);
  UnitMap units = std::move(collector).take();
  // A Monte Carlo study's samples and statistics (mean, q95, ...) are in the unit of the
  // measure it samples (`of: final(event_times)`: seconds).
  if (const framework::Axis* of = r.conditions.find_axis("of");
      of != nullptr && of->values.size() == 1 && of->values.front().is_string()) {
    framework::Quality sampled;
    sampled.measure = of->values.front().as_string();
    if (const auto u = units.find(std::string(framework::measured_name(sampled)));
        u != units.end()) {
      const std::string unit = u->second;
      units.emplace(sampled.measure, unit);
      for (const char* statistic : {"samples", "mean", "std", "ci_lower", "ci_upper", "median",
                                    "q05", "q95", "min", "max"}) {
        units.emplace(statistic, unit);
      }
    }
  }
  // A study's drawn inputs (drawn.p.s1) are in their input's unit.
  if (const framework::Axis* perturb = r.conditions.find_axis("perturb"); perturb != nullptr) {
    for (const auto& value : perturb->values) {
      if (!value.is_map()) continue;
      for (const auto& [input, distribution] : value.as_map()) {
        if (const auto u = units.find(input); u != units.end()) {
          units.emplace("drawn." + input, u->second);
        }
      }
    }
  }
  // rms(), max_abs(), final(), max(), min(), peak() and steady_state_error() keep the unit
  // of what they reduce; so does a compare distance in the max_abs or rms norm (max_rel is a
  // ratio). peak_time(), rise_time() and settling_time() are times; overshoot() and
  // undershoot() percent of the step.
  const std::string measured(framework::measured_name(r.quality));
  const std::string_view written = r.quality.measure;
  const auto unit = units.find(measured);
  const framework::Value* norm = r.quality.compare ? r.quality.compare->find("norm") : nullptr;
  const bool relative = norm != nullptr && norm->is_string() && norm->as_string() == "max_rel";
  const std::string dimensionless(1, '1');  // a "1" literal trips GCC 12's -Wrestrict here
  std::string_view reduction = written.substr(0, std::min(written.find('('), written.size()));
  while (reduction.ends_with(' ')) reduction.remove_suffix(1);
  const auto reduced_by = [&](std::string_view name) {
    return measured != written && reduction == name;
  };
  if (relative) {
    units.insert_or_assign(r.quality.measure, dimensionless);
  } else if (reduced_by("overshoot") || reduced_by("undershoot")) {
    units.insert_or_assign(r.quality.measure, std::string(1, '%'));  // as "1" above
  } else if (reduced_by("peak_time") || reduced_by("rise_time") || reduced_by("settling_time")) {
    if (const auto time = units.find("t"); time != units.end()) {
      units.insert_or_assign(r.quality.measure, time->second);
    }
  } else if (unit != units.end() && measured != r.quality.measure) {
    units.emplace(r.quality.measure, unit->second);
  }
  return units;
}

}  // namespace simverify::components
