// The `sensitivity` component (system level): the sensitivity (Def 4.21) of a measure of
// `simulate` with respect to one input.
//   by: central_difference (default) - numerical sensitivity (Def 4.24) of any measure with
//       respect to a parameter p.<name>, t0, tf or a component x0[i], by central differences
//       whose step balances truncation against the solver's own error
//       (analysis/finite_difference.hpp);
//   by: forward - the forward sensitivity equations x_p' = f_x x_p + f_p integrated with the
//       run and continued across events (analysis/forward_sensitivity.hpp), for a parameter
//       and the measures x_end[i], final(x_end), event_times[k], final(event_times).
#include "conditions.hpp"
#include "registration.hpp"
#include "study_measure.hpp"

#include <simverify/simulation/analysis/finite_difference.hpp>
#include <simverify/simulation/analysis/forward_sensitivity.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Measurement;
using framework::Value;

// Conditions of this component that are not passed on to `simulate`.
constexpr std::string_view kSensitivityAxes[] = {"wrt", "of", "noise", "by"};

bool is_own_axis(std::string_view name) {
  return std::find(std::begin(kSensitivityAxes), std::end(kSensitivityAxes), name) !=
         std::end(kSensitivityAxes);
}

// The input being varied: an axis name and, for x0[i], the component index.
struct Input {
  std::string axis;
  std::optional<std::size_t> index;
};

Input parse_input(const std::string& wrt) {
  if (wrt.starts_with("x0[") && wrt.back() == ']') {
    return {"x0", static_cast<std::size_t>(std::stoul(wrt.substr(3, wrt.size() - 4)))};
  }
  if (wrt == "t0" || wrt == "tf" || wrt.starts_with("p.")) return {wrt, std::nullopt};
  throw std::invalid_argument("wrt must be p.<name>, t0, tf or x0[<i>], found '" + wrt + "'");
}

// The nominal value of the input: from the condition, else the model's default.
double nominal(const Condition& c, const Input& in) {
  const simulation::ModelInfo info = model_for(c)->info();
  if (in.axis == "x0") {
    const auto x0 = c.has("x0")
                        ? c.at("x0").as_numbers()
                        : std::vector<double>(info.default_x0.begin(), info.default_x0.end());
    if (*in.index >= x0.size()) {
      throw std::invalid_argument("wrt: x0[" + std::to_string(*in.index) +
                                  "] is out of range: model '" + info.name + "' has " +
                                  std::to_string(x0.size()) + " states");
    }
    return x0[*in.index];
  }
  if (c.has(in.axis)) return c.number(in.axis);
  if (in.axis == "t0") return 0.0;
  if (in.axis == "tf") return info.default_tf;
  const std::string name = in.axis.substr(2);
  for (const auto& p : info.parameters) {
    if (p.name == name) return p.default_value;
  }
  throw std::invalid_argument("model '" + info.name + "' has no parameter '" + name + "'");
}

// A one-point grid with the condition's values, the input set to `x`.
framework::Grid perturbed(const Condition& c, const Input& in, double x) {
  framework::Grid grid;
  bool placed = false;
  for (const auto& [name, value] : c.entries()) {
    if (is_own_axis(name)) continue;
    Value v = *value;
    if (name == in.axis) {
      if (in.index) {
        auto list = v.as_numbers();
        list[*in.index] = x;
        v = Value(Value::List(list.begin(), list.end()));
      } else {
        v = Value(x);
      }
      placed = true;
    }
    grid.add_group({{framework::Axis{std::string(name), {v}, {}}}});
  }
  if (!placed) {
    if (in.index) {
      const auto info = model_for(c)->info();
      std::vector<double> x0(info.default_x0.begin(), info.default_x0.end());
      x0[*in.index] = x;
      grid.add_group({{framework::Axis{"x0", {Value(Value::List(x0.begin(), x0.end()))}, {}}}});
    } else {
      grid.add_group({{framework::Axis{in.axis, {Value(x)}, {}}}});
    }
  }
  return grid;
}

// A measure the forward sensitivity equations give the derivative of: a component of the
// end state or an event time, by index (final: the last one).
struct ForwardMeasure {
  enum class Kind { state, event_time };
  Kind kind = Kind::state;
  std::optional<std::size_t> index;  // empty: the last
};

ForwardMeasure parse_forward_measure(const std::string& of) {
  const auto wanted = [&]() -> std::optional<StudyMeasure> {
    try {
      return parse_study_measure(of);
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
  }();
  // final(<name>) is the last element, <name>[<i>] the i-th.
  if (wanted && (wanted->name == "x_end" || wanted->name == "event_times") &&
      (wanted->index || wanted->reduction == "final")) {
    return {
        wanted->name == "x_end" ? ForwardMeasure::Kind::state : ForwardMeasure::Kind::event_time,
        wanted->index};
  }
  throw std::invalid_argument(
      "by: forward differentiates x_end[<i>], final(x_end), event_times[<k>] or "
      "final(event_times), found '" +
      of + "'");
}

// What by: forward can differentiate: measure `of` with respect to a parameter.
ForwardMeasure forward_measure(const Input& in, const std::string& of) {
  if (!in.axis.starts_with("p.")) {
    throw std::invalid_argument("by: forward needs wrt: p.<name> (a model parameter), found '" +
                                in.axis + "'");
  }
  return parse_forward_measure(of);
}

// Forward sensitivity equations (Def 4.21): one run of the model augmented with dx/dp.
Measurement forward_sensitivity(const Condition& c, const Input& in, const std::string& of,
                                std::string_view requirement) {
  const ForwardMeasure wanted = forward_measure(in, of);
  const auto model = model_for(c, requirement);
  const std::string parameter = in.axis.substr(2);
  const simulation::analysis::ForwardSensitivityModel augmented(*model, {parameter});
  auto settings = simulator_settings(c, *model, requirement);
  if (settings.x0.size() > 0) settings.x0 = augmented.augmented_state(settings.x0);
  // The sensitivities are under the same error control as the states (CVODES' errconS):
  // a per-state atol applies to each sensitivity block as well.
  const std::size_t n = static_cast<std::size_t>(model->state_dimension());
  if (settings.stepper.atol.size() == n) {
    const auto per_state = settings.stepper.atol;
    settings.stepper.atol.insert(settings.stepper.atol.end(), per_state.begin(), per_state.end());
  }
  settings.record_trajectory = false;
  const simulation::Simulator simulator(augmented, settings);
  const simulation::SimulatorResult run = simulator.run();

  const auto state_n = model->state_dimension();
  const simulation::Vector x_end = run.x_end.head(state_n);
  const simulation::Vector dx_end = augmented.sensitivities(run.x_end).col(0);
  std::vector<double> event_times, dt_events;
  for (const auto& event : run.events) {
    event_times.push_back(event.time);
    const simulation::InputSample u =
        settings.input ? settings.input->at(event.time) : simulation::InputSample{};
    dt_events.push_back(augmented.event_time_sensitivity(event, simulator.parameters(), u)(0));
  }

  double value = 0.0, derivative = 0.0;
  if (wanted.kind == ForwardMeasure::Kind::state) {
    if (run.status != simulation::RunStatus::completed) {
      throw std::invalid_argument(
          "by: forward differentiates x_end only for runs that end at tf (" + run.message + ")");
    }
    const auto i = static_cast<Eigen::Index>(wanted.index.value_or(n - 1));
    if (i >= state_n) {
      throw std::invalid_argument("x_end index " + std::to_string(i) + " out of range (" +
                                  std::to_string(n) + " states)");
    }
    value = x_end(i);
    derivative = dx_end(i);
  } else {
    if (event_times.empty()) throw std::invalid_argument("the run has no events");
    const std::size_t k = wanted.index.value_or(event_times.size() - 1);
    if (k >= event_times.size()) {
      throw std::invalid_argument("event_times index " + std::to_string(k) + " out of range (" +
                                  std::to_string(event_times.size()) + " events)");
    }
    value = event_times[k];
    derivative = dt_events[k];
  }
  const double x = simulator.parameters()[model->parameter_index(parameter)];
  Measurement m;
  m.set("value", value);
  m.set("derivative", derivative);
  if (value != 0.0 && x != 0.0)
    m.set("normalized", simulation::analysis::normalized(derivative, x, value));
  m.set("x_end_derivative", std::vector<double>(dx_end.begin(), dx_end.end()));
  m.set("event_times_derivative", std::move(dt_events));
  return m;
}

Measurement sensitivity(const Condition& c, const framework::PointContext& context) {
  const Input in = parse_input(c.text("wrt"));
  if (c.text_or("by", "central_difference") == "forward") {
    return forward_sensitivity(c, in, c.text("of"), requirement_of(context));
  }
  const StudyMeasure of = parse_study_measure(c.text("of"));
  const framework::Component simulate = simulate_component();
  // Each difference quotient's runs measure only `of` (no trajectory, no unread reference).
  const auto needs = study_measure_needs(of);
  auto measure_at = [&](double x) {
    const framework::Grid grid = perturbed(c, in, x);
    return study_measure_value(
        simulate.measure(grid.point(0), {.requirement = context.requirement, .needs = &needs}), of);
  };
  const double x = nominal(c, in);
  // The measure is only as smooth as the solver is accurate: its noise is about rtol.
  const double noise = c.number_or(
      "noise", std::max(c.number_or("rtol", 1e-3), std::numeric_limits<double>::epsilon()));
  const auto d = simulation::analysis::central_difference(measure_at, x, noise);
  const double value = measure_at(x);
  // A measure that is not smooth at the step's scale gives quotients at s and s/2 that
  // disagree (a fixed-step run across a limited integrator's clamp or a switch: the stages
  // past the switch make the located event's error jump with the input; ode4, h = 1e-3, noise
  // 1e-10 gave dtau/dk = -0.077 for -0.25). Refused when the Richardson estimate exceeds 1% of
  // the derivative and 10 times what the measure's noise explains (noise |value| / step: a
  // smooth measure at the default noise 1e-3 reaches only ~1%). Below that the quotient is
  // reported; measured on that ramp, it was within 3 times its error estimate.
  const double explained = 10.0 * noise * std::abs(value) / d.step;
  if (d.error_estimate > 0.01 * std::abs(d.value) && d.error_estimate > explained) {
    std::ostringstream why;
    why << "central differences disagree: d(" << c.text("of") << ")/d(" << c.text("wrt")
        << ") = " << d.value << " at step " << d.step << ", Richardson error estimate "
        << d.error_estimate
        << " (over 1% of it): the measure is not smooth in the input at this step (a "
           "fixed-step method across a state event or switch is one cause); use an adaptive "
           "method with a tight rtol, or by: forward";
    throw std::runtime_error(why.str());
  }
  Measurement m;
  m.set("value", value);
  m.set("derivative", d.value);
  m.set("error_estimate", d.error_estimate);
  m.set("step", d.step);
  if (value != 0.0 && x != 0.0)
    m.set("normalized", simulation::analysis::normalized(d.value, x, value));
  return m;
}

// Before anything runs: simulate's pairings, then that wrt names an input of the model and
// that by: forward is asked for a derivative it computes.
std::optional<std::string> check_point(const Condition& c) {
  if (auto problem = check_simulation_point(c)) return problem;
  // A missing `wrt` or `of` is reported by check_requirement: without either a point that
  // fits passes, so the loader finds the one that does not fit (a wrt the model lacks, an of
  // that by: forward cannot differentiate) and points at its value.
  if (!c.has("wrt")) return std::nullopt;
  const Input in = parse_input(c.text("wrt"));
  (void)nominal(c, in);
  if (c.has("of") && c.text_or("by", "central_difference") == "forward") {
    (void)forward_measure(in, c.text("of"));
  }
  return std::nullopt;
}

}  // namespace

framework::Component sensitivity_component() {
  framework::Component c = extend_simulate(
      "sensitivity",
      "d(of)/d(wrt) of a simulate measure by central differences (Def 4.24) or, by: forward, "
      "the forward sensitivity equations (Def 4.21); normalized = % change per 1% change",
      {std::begin(kSensitivityAxes), std::end(kSensitivityAxes)},
      {"value", "derivative", "normalized", "error_estimate", "step", "x_end_derivative",
       "event_times_derivative"},
      sensitivity,
      [](std::string_view axis, const Value& v) -> std::optional<framework::AxisProblem> {
        if (axis == "wrt") {
          if (!v.is_string()) return "expected p.<name>, t0, tf or x0[<i>]";
          try {
            (void)parse_input(v.as_string());
          } catch (const std::exception& e) {
            return e.what();
          }
          return std::nullopt;
        }
        if (axis == "of") return check_study_measure(v);
        if (axis == "by") {
          if (!v.is_string() ||
              (v.as_string() != "central_difference" && v.as_string() != "forward")) {
            return "expected central_difference or forward";
          }
          return std::nullopt;
        }
        if (!v.is_number() || !(v.as_number() > 0)) return "expected a positive number";
        return std::nullopt;
      });
  framework::ConditionCheck check = simulation_point_check();
  check.axes.insert(check.axes.end(), {"wrt", "of", "by"});
  check.check = check_point;
  c.check_condition = std::move(check);
  c.check_requirement = [](const framework::Requirement& r) {
    if (r.conditions.find_axis("wrt") == nullptr) {
      return framework::Diagnostics{
          {r.location, "missing condition 'wrt': the input, p.<name>, t0, tf or x0[<i>]"}};
    }
    return check_study_outputs(r);
  };
  return c;
}

}  // namespace simverify::components
