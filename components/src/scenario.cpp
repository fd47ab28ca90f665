// The `scenario` component (system level): scenario analysis (Def 4.26) of a measure of
// `simulate`. Each scenario is a named set of condition overrides; the one named `base` is
// the base case (the most likely scenario), and ranking the measure over the set gives the
// worst and the best case. With `switching: {wrt, limit}` it also finds the switching values
// of Def 4.26: moving the numeric input `wrt` from its base-case value towards its value in
// the worst (best) case, with everything else as in the base case, the value at which the
// measure crosses `limit` - where the behaviour changes from acceptable to not (or back) -
// and so the tolerable size of the deviation from the base case.
#include "registration.hpp"
#include "simulate_at.hpp"
#include "study_measure.hpp"

#include <simverify/core/text.hpp>
#include <simverify/simulation/analysis/scenario.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Measurement;
using framework::Value;
namespace analysis = simulation::analysis;

constexpr std::string_view kScenarioAxes[] = {"of", "scenarios", "better", "switching"};

struct Scenario {
  std::string name;
  Overrides overrides;
};

std::vector<Scenario> parse_scenarios(const Value& v) {
  if (!v.is_map() || v.as_map().empty()) {
    throw std::invalid_argument(
        "expected a non-empty mapping of scenarios, e.g. {base: {p.d1: 1500}, worn: {p.d1: 600}}");
  }
  std::vector<Scenario> out;
  for (const auto& [name, overrides] : v.as_map()) {
    const std::string where =
        overrides.location.line > 0 ? " (at " + overrides.location.str() + ")" : "";
    if (!overrides.is_map()) {
      throw std::invalid_argument("scenario '" + name + "'" + where +
                                  " must be a mapping of conditions, e.g. {p.d1: 1500}");
    }
    Scenario s{name, {}};
    for (const auto& [axis, value] : overrides.as_map()) {
      if (std::find(std::begin(kScenarioAxes), std::end(kScenarioAxes), axis) !=
          std::end(kScenarioAxes)) {
        throw std::invalid_argument("scenario '" + name + "'" + where + ": '" + axis +
                                    "' cannot vary between scenarios");
      }
      if (value.is_list() && axis != "x0" && axis != "atol") {
        throw std::invalid_argument("scenario '" + name + "'" + where + ": '" + axis +
                                    "' must be one value (a scenario is one point)");
      }
      if (auto problem = check_simulate_override(axis, value)) {
        throw std::invalid_argument("scenario '" + name + "'" + where + ": condition '" + axis +
                                    "': " + problem->str());
      }
      s.overrides.emplace_back(axis, value);
    }
    out.push_back(std::move(s));
  }
  if (std::none_of(out.begin(), out.end(), [](const Scenario& s) { return s.name == "base"; })) {
    throw std::invalid_argument("no scenario named 'base' (the base case, Def 4.26)");
  }
  return out;
}

struct Switching {
  std::string wrt;
  double limit = 0.0;
  double tolerance = 0.0;  // 0: 1e-3 of the distance between the two scenarios' values
};

Switching parse_switching(const Value& v) {
  if (!v.is_map()) {
    throw std::invalid_argument("expected {wrt: <numeric condition>, limit: <measure value>}");
  }
  Switching s;
  bool has_wrt = false, has_limit = false;
  for (const auto& [key, value] : v.as_map()) {
    if (key == "wrt") {
      if (!value.is_string())
        throw std::invalid_argument("switching: wrt must be a condition name");
      s.wrt = value.as_string();
      has_wrt = true;
    } else if (key == "limit") {
      s.limit = value.as_number();
      has_limit = std::isfinite(s.limit);
    } else if (key == "tolerance") {
      s.tolerance = value.as_number();
      if (!(s.tolerance > 0.0)) throw std::invalid_argument("switching: tolerance must be > 0");
    } else {
      throw std::invalid_argument("switching: unknown key '" + key + "'" +
                                  core::did_you_mean(key, {"wrt", "limit", "tolerance"}) +
                                  "; known: wrt, limit, tolerance");
    }
  }
  if (!has_wrt || !has_limit) {
    throw std::invalid_argument("switching needs wrt (a numeric condition) and a finite limit");
  }
  if (auto problem = check_simulate_override(s.wrt, Value(1.0))) {
    throw std::invalid_argument("switching: wrt '" + s.wrt + "': " + problem->str());
  }
  return s;
}

analysis::Better parse_better(const Condition& c) {
  const std::string better = c.text_or("better", "lower");
  if (better == "lower") return analysis::Better::lower;
  if (better == "higher") return analysis::Better::higher;
  throw std::invalid_argument("better must be lower or higher, not '" + better + "'");
}

// The value of numeric input `wrt` in a scenario: its override, else the condition's value.
double input_value(const Condition& c, const Scenario& s, const std::string& wrt) {
  for (const auto& [axis, value] : s.overrides) {
    if (axis == wrt) return value.as_number();
  }
  if (c.has(wrt)) return c.number(wrt);
  throw std::invalid_argument("switching: '" + wrt + "' has no value in scenario '" + s.name +
                              "' nor in the conditions");
}

Overrides without(Overrides o, const std::string& axis) {
  std::erase_if(o, [&](const auto& entry) { return entry.first == axis; });
  std::sort(o.begin(), o.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return o;
}

bool differs_only_in(const Scenario& a, const Scenario& b, const std::string& axis) {
  return without(a.overrides, axis) == without(b.overrides, axis);
}

Measurement scenario(const Condition& c, const framework::PointContext& context) {
  const std::vector<Scenario> set = parse_scenarios(c.at("scenarios"));
  const StudyMeasure of = parse_study_measure(c.text("of"));
  const analysis::Better better = parse_better(c);
  std::vector<double> values;
  values.reserve(set.size());
  for (const auto& s : set)
    values.push_back(simulate_measure(c, kScenarioAxes, s.overrides, of, context));
  const auto base_it =
      std::find_if(set.begin(), set.end(), [](const Scenario& s) { return s.name == "base"; });
  const auto base = static_cast<std::size_t>(base_it - set.begin());
  const analysis::ScenarioSummary summary = analysis::scenarios(values, base, better);

  Measurement m;
  m.set("worst_case", summary.worst_value);
  m.set("base_case", summary.base_value);
  m.set("best_case", summary.best_value);
  m.set("worst_scenario", static_cast<double>(summary.worst));
  m.set("best_scenario", static_cast<double>(summary.best));
  m.set("scenario_values", values);

  const Value* switching = c.find("switching");
  if (switching == nullptr) return m;
  const Switching sw = parse_switching(*switching);
  const double from = input_value(c, set[base], sw.wrt);
  const auto acceptable = [&](double value) {
    return better == analysis::Better::lower ? value <= sw.limit : value >= sw.limit;
  };
  // The measure with the base case's conditions and `wrt` moved to x.
  const auto along = [&](double x) {
    Overrides o = without(set[base].overrides, sw.wrt);
    o.emplace_back(sw.wrt, Value(x));
    return simulate_measure(c, kScenarioAxes, o, of, context);
  };
  struct Direction {
    const char* name;
    std::size_t scenario;
  };
  for (const Direction d : {Direction{"worst", summary.worst}, Direction{"best", summary.best}}) {
    const double to = input_value(c, set[d.scenario], sw.wrt);
    const double distance = std::abs(to - from);
    const double at_from = values[base];
    // When the scenario differs from the base case in `wrt` alone, its own run is the end of
    // the path; otherwise the path's end is a run of its own.
    const double at_to =
        differs_only_in(set[d.scenario], set[base], sw.wrt) ? values[d.scenario] : along(to);
    const bool switches = distance > 0.0 && acceptable(at_from) != acceptable(at_to);
    if (switches) {
      const double tolerance = sw.tolerance > 0.0 ? sw.tolerance : 1e-3 * distance;
      const double x = analysis::switching_value(along, from, to, sw.limit, tolerance);
      m.set(std::string("switching_to_") + d.name, x);
      if (std::string_view(d.name) == "worst") {
        m.set("tolerable_deviation", std::abs(x - from));
      }
    } else if (std::string_view(d.name) == "worst") {
      // No switch on the way to the worst case: the whole way is tolerable when the base
      // case is acceptable, none of it when it is not.
      m.set("tolerable_deviation", acceptable(at_from) ? distance : 0.0);
    }
  }
  return m;
}

}  // namespace

framework::Component scenario_component() {
  framework::Component c = extend_simulate(
      "scenario",
      "scenario analysis (Def 4.26): worst, base and best case of a simulate measure over named "
      "scenarios, and the switching values of one input where the measure crosses a limit",
      {std::begin(kScenarioAxes), std::end(kScenarioAxes)},
      {"worst_case", "base_case", "best_case", "worst_scenario", "best_scenario", "scenario_values",
       "switching_to_worst", "switching_to_best", "tolerable_deviation"},
      scenario, [](std::string_view axis, const Value& v) -> std::optional<framework::AxisProblem> {
        if (axis == "of") return check_study_measure(v);
        try {
          if (axis == "scenarios") {
            (void)parse_scenarios(v);
          } else if (axis == "switching") {
            (void)parse_switching(v);
          } else if (axis == "better") {
            if (!v.is_string() || (v.as_string() != "lower" && v.as_string() != "higher")) {
              return "expected lower or higher (the direction of the best case)";
            }
          }
        } catch (const std::exception& e) {
          return e.what();
        }
        return std::nullopt;
      });
  c.check_requirement = check_study_outputs;
  return c;
}

}  // namespace simverify::components
