// The `simulate` component (integration level): runs a model with a method over one grid point
// (Alg 7) and measures the run (format page, "Built-in components and measures").
#include "conditions.hpp"
#include "diagram_conditions.hpp"
#include "fmu_conditions.hpp"
#include "input_conditions.hpp"
#include "model_measure.hpp"
#include "registration.hpp"
#include "simulation_note.hpp"
#include "solution_error.hpp"

#include <fmt/format.h>

#include <simverify/framework/quality.hpp>
#include <simverify/framework/requirement.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Measurement;
using framework::TimeSeries;

// The value of `u:` when it is constant over the run ({constant: v} or a plain number,
// without hold), so exact solutions that need a constant input apply.
std::optional<double> constant_input(const Condition& c) {
  const auto* u = c.find("u");
  if (u == nullptr) return 0.0;
  if (u->is_number()) return u->as_number();
  if (u->is_map()) {
    const auto* constant = u->find("constant");
    if (constant != nullptr && constant->is_number()) return constant->as_number();
  }
  return std::nullopt;
}

TimeSeries states_series(const simulation::SimulatorResult& run,
                         const std::vector<std::string>& names) {
  TimeSeries ts;
  ts.time = run.trajectory.time;
  ts.names = names;
  ts.columns.assign(names.size(), std::vector<double>(run.trajectory.size()));
  for (std::size_t i = 0; i < run.trajectory.size(); ++i) {
    for (std::size_t j = 0; j < names.size(); ++j) {
      ts.columns[j][i] = run.trajectory.states[i][static_cast<Eigen::Index>(j)];
    }
  }
  return ts;
}

// The reference problem of a point (solution_error.hpp): every condition but the run's own
// method and step control, with the file each value was written in (relative paths of FMUs
// and input tables resolve from there). A noise input draws from its requirement's stream
// (input_conditions.hpp), so with noise the requirement is part of the problem too.
std::string reference_key(const Condition& c, std::string_view requirement) {
  static constexpr std::array<std::string_view, 5> kRunOnly = {"method", "h", "rtol", "atol",
                                                               "nonlinear"};
  std::string key;
  for (const auto& [name, value] : c.entries()) {
    if (std::find(kRunOnly.begin(), kRunOnly.end(), name) != kRunOnly.end()) continue;
    key.append(name).append("=").append(value->json()).append("@");
    key.append(value->location.file).append(";");
    if ((name == "u" || name.starts_with("u.")) && noise_hold(*value)) {
      key.append("requirement=").append(requirement).append(";");
    }
  }
  return key;
}

// Measures only what the point's needs name (framework/measure_needs.hpp): the trajectory is
// recorded only for a series or error_max, outputs only for y.*, and the reference solve
// of error_* happens only when one of them is read.
Measurement simulate(const Condition& c, const framework::PointContext& context) {
  // The requirement id keys the point's noise streams (input_conditions.hpp).
  const std::string_view requirement = requirement_of(context);
  if (is_co_simulation(c)) return simulate_co_simulation(c, requirement);  // the FMU steps itself
  const auto wants = [&](std::string_view measure) { return context.wants(measure); };
  const bool error_max = wants("error_max");
  const bool error_end = error_max || wants("error_end") || wants("error_per_rtol");
  const bool outputs = context.needs == nullptr || context.needs->wants_prefix("y.");
  const auto model = model_for(c, requirement);
  auto settings = simulator_settings(c, *model, requirement);
  settings.record_outputs = outputs;
  settings.record_trajectory = outputs || error_max || wants("trajectory");
  // The console's bar moves inside a long simulation (simulated time over the horizon), and a
  // point killed at --timeout says how far it got (simulation_note.hpp).
  observe_simulation_progress(settings, context.timeout_seconds);
  const double rtol = settings.stepper.rtol;
  const simulation::Simulator simulator(*model, std::move(settings));
  const simulation::SimulatorResult run = simulator.run();

  Measurement m;
  if (wants("x_end")) m.set("x_end", std::vector<double>(run.x_end.begin(), run.x_end.end()));
  if (wants("t_end")) m.set("t_end", run.t_end);
  if (wants("steps")) m.set("steps", static_cast<double>(run.statistics.steps));
  if (wants("rejected_steps")) {
    m.set("rejected_steps", static_cast<double>(run.statistics.rejected_steps));
  }
  if (wants("f_evals")) m.set("f_evals", static_cast<double>(run.statistics.rhs_evaluations));
  if (wants("event_count")) m.set("event_count", static_cast<double>(run.events.size()));
  if (wants("event_times")) {
    std::vector<double> event_times;
    event_times.reserve(run.events.size());
    for (const auto& e : run.events) event_times.push_back(e.time);
    m.set("event_times", std::move(event_times));
  }
  if (wants("zeno")) m.set("zeno", run.status == simulation::RunStatus::zeno ? 1.0 : 0.0);
  if (wants("trajectory")) m.set("trajectory", states_series(run, model->info().states));

  const auto& output_names = model->info().outputs;
  for (std::size_t j = 0; j < output_names.size() && outputs; ++j) {
    if (!wants("y." + output_names[j])) continue;
    TimeSeries y;
    y.time = run.trajectory.time;
    y.names = {output_names[j]};
    y.columns.assign(1, std::vector<double>(run.trajectory.size()));
    for (std::size_t i = 0; i < run.trajectory.outputs.size(); ++i) {
      y.columns[0][i] = run.trajectory.outputs[i][static_cast<Eigen::Index>(j)];
    }
    m.set("y." + output_names[j], std::move(y));
  }

  const std::string reference = c.text_or("reference", "ode45");
  if (reference != "none" && error_end) {
    const SolutionError error = solution_error(simulator, run,
                                               {.constant_input = constant_input(c),
                                                .reference_method = reference,
                                                .key = reference_key(c, requirement),
                                                .want_max = error_max});
    if (wants("error_end")) m.set("error_end", error.end);
    if (error_max) m.set("error_max", error.max);
    // Tolerance proportionality: an adaptive run's global error in units of its rtol, so
    // one threshold (error_end <= C rtol) holds over a whole rtol axis.
    if (wants("error_per_rtol")) m.set("error_per_rtol", error.end / rtol);
  }
  return m;
}

// A vector or time series is no quality by itself: without `compare:` or a reduction the
// run would refuse it at every point, so validate says so at the measure.
std::optional<std::string> unreduced_measure(const framework::Requirement& r) {
  const std::string_view name = framework::measured_name(r.quality);
  if (r.quality.compare || name.size() != r.quality.measure.size()) return std::nullopt;
  const char* what = name == "x_end"          ? "a vector (the state at tf)"
                     : name == "event_times"  ? "a vector (the times of the events)"
                     : name == "trajectory"   ? "a time series (the states)"
                     : name.starts_with("y.") ? "a time series (an output of the model)"
                                              : nullptr;
  if (what == nullptr) return std::nullopt;
  return fmt::format(
      "measure '{0}' is {1}, not a number: compare it with a reference "
      "(`compare:`) or reduce it with rms({0}), max_abs({0}) or final({0})",
      name, what);
}

framework::Diagnostics check_output_measures(const framework::Requirement& r) {
  framework::Diagnostics problems;
  if (auto problem = unreduced_measure(r)) {
    problems.push_back({r.quality.measure_location, std::move(*problem)});
    return problems;
  }
  if (auto problem = check_measure_of_models(r.conditions, framework::measured_name(r.quality))) {
    problems.push_back({r.quality.measure_location, std::move(*problem)});
  }
  return problems;
}

}  // namespace

framework::Component simulate_component() {
  framework::Component c;
  c.info.name = "simulate";
  c.info.description = "runs a model with a solution method (Alg 7) and measures the run";
  c.info.axes = {"model",     "variant",  "method",    "h",         "rtol",
                 "atol",      "t0",       "tf",        "x0",        "u",
                 "u.*",       "p.*",      "seed",      "events",    "sample_time",
                 "nonlinear", "max_step", "step_hold", "reference", "fmi_type"};
  c.info.measures = {"x_end", "t_end",          "error_end", "error_max",   "error_per_rtol",
                     "steps", "rejected_steps", "f_evals",   "event_times", "event_count",
                     "zeno",  "trajectory",     "y.*",       "terminated"};
  c.evaluate = [](const Condition& condition) { return simulate(condition, {}); };
  c.evaluate_in_context = simulate;
  c.check_axis = check_simulation_axis;
  c.check_condition = simulation_point_check();
  c.check_requirement = check_output_measures;
  c.hint_axis = simulation_axis_hint;
  return c;
}

}  // namespace simverify::components
