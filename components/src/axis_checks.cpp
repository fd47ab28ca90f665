// Load-time validation of the well-known axes (format page): a typo in a requirement file is
// reported with the known names before any grid point runs.
#include "conditions.hpp"
#include "diagram_conditions.hpp"
#include "fmu_conditions.hpp"
#include "input_conditions.hpp"
#include "parameter_overrides.hpp"
#include "registration.hpp"

#include <simverify/core/text.hpp>
#include <simverify/framework/diagnostics.hpp>
#include <simverify/simulation/method_fit.hpp>
#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <exception>

namespace simverify::components {
namespace {

std::optional<std::string> check_name(const framework::Value& v,
                                      const std::vector<std::string>& known, const char* what) {
  if (!v.is_string()) return std::string("expected a ") + what + " name, found " + v.type_name();
  if (std::find(known.begin(), known.end(), v.as_string()) == known.end()) {
    return "unknown " + std::string(what) + " '" + v.as_string() + "'" +
           core::did_you_mean(v.as_string(), known) + "; known: " + core::join(known);
  }
  return std::nullopt;
}

// A variant is valid when some registered model has it; otherwise the message lists the
// variants each model with variants offers.
std::optional<std::string> check_variant(const framework::Value& v) {
  if (!v.is_string()) return std::string("expected a variant name, found ") + v.type_name();
  std::string offers;
  std::vector<std::string> all;
  for (const auto& name : simulation::model_names()) {
    const auto variants = simulation::model_variants(name);
    if (std::find(variants.begin(), variants.end(), v.as_string()) != variants.end()) {
      return std::nullopt;
    }
    if (!variants.empty())
      offers += (offers.empty() ? "" : "; ") + name + ": " + core::join(variants);
    all.insert(all.end(), variants.begin(), variants.end());
  }
  return "unknown variant '" + v.as_string() + "'" + core::did_you_mean(v.as_string(), all) +
         "; known: " + offers;
}

// A model names a registered model or, as a path ending in .fmu, an FMU that opens.
std::optional<std::string> check_model(const framework::Value& v) {
  if (names_fmu(v)) {
    (void)fmu_of(v);  // throws saying what is wrong with the file
    return std::nullopt;
  }
  if (names_diagram(v)) {
    (void)diagram_of(v);  // throws at file:line:column of the diagram
    return std::nullopt;
  }
  return check_name(v, simulation::model_names(), "model");
}

// The parameters a point sets: its p.<name> axes, and those a study built on simulate varies
// (scenario overrides and switching.wrt, monte_carlo's perturb, sensitivity's wrt). Their names
// depend on the model, another axis, so they are checked per point (check_simulation_point).
std::vector<std::string> parameters_named(const framework::Condition& c) {
  std::vector<std::string> names;
  const auto add = [&](std::string_view key) {
    if (key.starts_with("p.")) names.emplace_back(key.substr(2));
  };
  for (const auto& [axis, value] : c.entries()) add(axis);
  if (const auto* scenarios = c.find("scenarios"); scenarios != nullptr && scenarios->is_map()) {
    for (const auto& [name, overrides] : scenarios->as_map()) {
      if (!overrides.is_map()) continue;
      for (const auto& [key, value] : overrides.as_map()) add(key);
    }
  }
  if (const auto* perturb = c.find("perturb"); perturb != nullptr && perturb->is_map()) {
    for (const auto& [key, value] : perturb->as_map()) add(key);
  }
  if (const auto* wrt = c.find("wrt"); wrt != nullptr && wrt->is_string()) add(wrt->as_string());
  if (const auto* switching = c.find("switching"); switching != nullptr && switching->is_map()) {
    if (const auto* wrt = switching->find("wrt"); wrt != nullptr && wrt->is_string()) {
      add(wrt->as_string());
    }
  }
  return names;
}

// "expected a number, found ...", showing text that was meant as one ("5s", "0x10", "1e999").
std::string not_a_number(const framework::Value& v) {
  if (!v.is_string()) return "expected a number, found " + std::string(v.type_name());
  return "expected a number, found the text '" + v.as_string() +
         "' (numbers are plain decimals such as 16, 0.5 or 1e-3: no units, no hexadecimal, "
         "finite)";
}

std::optional<std::string> check_number(const framework::Value& v, bool positive) {
  if (!v.is_number()) return not_a_number(v);
  if (!std::isfinite(v.as_number()) || (positive && !(v.as_number() > 0.0))) {
    return std::string("expected a ") + (positive ? "positive " : "") + "finite number";
  }
  return std::nullopt;
}

// How the requirement file spells a non-finite number (YAML 1.2: .nan, .inf, -.inf).
std::string yaml_spelling(double number) {
  if (std::isnan(number)) return ".nan";
  if (std::isinf(number)) return number > 0.0 ? ".inf" : "-.inf";
  return fmt::format("{}", number);
}

std::optional<std::string> not_nan(double number, const char* what) {
  if (!std::isnan(number)) return std::nullopt;
  return std::string("expected a number, found .nan (") + what + " must be numbers)";
}

// The reference solve runs to tight tolerances: a fixed-step method would need an h.
std::optional<std::string> check_reference_method(const std::string& name) {
  if (simulation::method_info(name).control != simulation::StepControl::fixed) return std::nullopt;
  std::vector<std::string> adaptive;
  for (const auto& method : simulation::method_names()) {
    if (simulation::method_info(method).control != simulation::StepControl::fixed) {
      adaptive.push_back(method);
    }
  }
  return fmt::format(
      "the reference solve needs an adaptive method ('{}' takes a fixed step); "
      "adaptive: {}",
      name, fmt::join(adaptive, ", "));
}

// A number as every numeric axis reads it (a text says why it is none), then a seed.
std::optional<std::string> check_seed(const framework::Value& v) {
  if (auto problem = check_number(v, false)) return problem;
  return framework::seed_problem(v);
}

// "<n> values" for messages about vector lengths.
std::string count(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

// The pairings an AxisCheck cannot see: the model has the variant, each p.<name> and as many
// states as x0 and a per-state atol have values.
std::optional<std::string> check_simulation_point(const framework::Condition& c) {
  if (!c.has("model")) return "missing condition 'model' (the model to simulate)";
  try {
    (void)sampling_for_noise(c);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  if (names_fmu(c.at("model"))) {
    if (auto problem = check_fmu_point(c)) return problem;
    const auto fmu = fmu_of(c.at("model"));
    const auto& d = fmu->description();
    const auto names = d.names(d.parameters);
    for (const auto& [axis, value] : c.entries()) {
      if (axis.starts_with("p.") && !value->is_number()) {
        return std::string("FMU parameter '").append(axis.substr(2)) + "' takes a number, given " +
               value->type_name();
      }
      if (axis.starts_with("p.") && !std::isfinite(value->as_number())) {
        return std::string("FMU parameter '").append(axis.substr(2)) +
               "' takes a finite number, given " + yaml_spelling(value->as_number());
      }
    }
    for (const auto& name : parameters_named(c)) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        return "FMU '" + fmu->path().filename().string() + "' has no parameter '" + name + "'" +
               framework::did_you_mean(name, names) + "; its parameters: " + core::join(names);
      }
    }
    return std::nullopt;
  }
  const bool diagram = names_diagram(c.at("model"));
  if (diagram) {
    if (auto problem = check_diagram_point(c)) return problem;  // its inports, x0, atol
  }
  for (const auto& [axis, value] : c.entries()) {
    if (!diagram && (axis.starts_with("u.") || axis == "fmi_type")) {
      // (append, not operator+: g++ 12 reports a false -Wrestrict for "'" + std::string)
      return std::string("'").append(axis).append("' is for FMUs; model '") + c.text("model") +
             "' is a built-in model";
    }
  }
  // (Only its description is read here: no requirement keys the streams.)
  const auto model = diagram ? diagram_model(c, {})
                             : simulation::make_model(c.text("model"), c.text_or("variant", ""));
  const auto& info = model->info();
  if (!diagram && !info.takes_input && c.has("u")) {
    // Diagrams and FMUs refuse an input they lack; a built-in model would ignore it.
    std::vector<std::string> with_input;
    for (const auto& name : simulation::model_names()) {
      if (simulation::make_model(name)->info().takes_input) with_input.push_back(name);
    }
    return "model '" + info.name +
           "' takes no inputs, so 'u' would be ignored; models with an "
           "input u: " +
           core::join(with_input);
  }
  std::vector<std::string> parameter_names;
  for (const auto& p : info.parameters) parameter_names.push_back(p.name);
  // The point's own p.<name> axes (a list or matrix parameter may be set whole), then the
  // names studies vary (scenario overrides, perturb, switching.wrt), element by element.
  std::vector<double> p = model->default_parameters();
  for (const auto& [axis, value] : c.entries()) {
    if (!axis.starts_with("p.")) continue;
    try {
      for (const auto& [name, number] :
           parameter_overrides(std::string(axis.substr(2)), *value, info)) {
        // A built-in model's parameters are physical constants; a diagram's limits may be
        // infinite (its own file allows that).
        if (!diagram && !std::isfinite(number)) {
          return "parameter '" + name + "' of model '" + info.name +
                 "' takes a finite number, given " + yaml_spelling(number);
        }
        p[model->parameter_index(name)] = number;
      }
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
  }
  for (const auto& name : parameters_named(c)) {
    if (c.has("p." + name)) continue;
    if (std::find(parameter_names.begin(), parameter_names.end(), name) == parameter_names.end()) {
      return "model '" + info.name + "' has no parameter '" + name + "'" +
             framework::did_you_mean(name, parameter_names) +
             "; its parameters: " + core::join(parameter_names);
    }
  }
  if (diagram) {
    // Values that break the structure the file fixed (a transfer function's leading
    // coefficient set to zero, a table's breakpoints out of order, ...).
    if (auto misfit = diagram_of(c.at("model"))->misfit(p)) {
      return "diagram '" + c.text("model") + "': " + *misfit;
    }
  }
  if (const auto* method = c.find("method"); method != nullptr && method->is_string()) {
    try {
      if (auto misfit = simulation::method_misfit(method->as_string(), *model, p)) return misfit;
    } catch (const std::invalid_argument&) {
      // an unknown method: reported by check_simulation_axis where it was written
    }
  }
  const auto states = static_cast<std::size_t>(model->state_dimension());
  if (const auto* x0 = c.find("x0"); x0 != nullptr && x0->as_numbers().size() != states) {
    // A flat list in conditions is an axis of scalars; a vector is a nested list.
    const std::string hint = x0->is_number() && states > 1 ? " (vectors are nested lists: x0: [[" +
                                                                 core::join(info.states) + "]])"
                                                           : "";
    return "x0 has " + count(x0->as_numbers().size(), "value") + ", model '" + info.name +
           "' has " + count(states, "state") + " (" + core::join(info.states) + ")" + hint;
  }
  if (const auto* atol = c.find("atol")) {
    const std::size_t n = atol->as_numbers().size();
    if (n != 1 && n != states) {
      return "atol has " + count(n, "value") + ": give one, or one per state of model '" +
             info.name + "' (" + count(states, "state") + ")";
    }
  }
  // Validate knows what run knows: the simulator's own checks of the point's settings, e.g.
  // tf > t0, a fixed step h that divides the sample time (Def 3.38), steps the run can resolve.
  try {
    (void)simulation::Simulator(*model, simulator_settings(c, *model));
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

std::string simulation_axis_hint(std::string_view name, const framework::Grid& conditions) {
  const framework::Axis* models = conditions.find_axis("model");
  if (models == nullptr) return "";
  for (const auto& model : models->values) {
    framework::Grid point;
    point.add_group({{framework::Axis{"model", {model}, {}}}});
    std::unique_ptr<simulation::Model> m;
    try {
      m = model_for(point.point(0));
    } catch (const std::exception&) {
      continue;  // an unknown model: its own error says so
    }
    const auto& info = m->info();
    for (const auto& p : info.parameters) {
      if (p.name == name) return " (did you mean 'p." + p.name + "'?)";
    }
    if (std::find(info.states.begin(), info.states.end(), name) != info.states.end()) {
      return " (did you mean 'x0'? the initial state is x0: [[" + core::join(info.states) + "]])";
    }
  }
  return "";
}

framework::ConditionCheck simulation_point_check() {
  return {{"model", "variant", "p.*", "x0", "atol", "fmi_type", "u", "u.*", "scenarios", "perturb",
           "switching", "method", "h", "sample_time", "t0", "tf", "max_step"},
          check_simulation_point};
}

std::optional<framework::AxisProblem> check_simulation_axis(std::string_view axis,
                                                            const framework::Value& v) {
  try {
    if (axis == "model") return check_model(v);
    if (axis == "method" || axis == "reference") {
      if (axis == "reference" && v.is_string() && v.as_string() == "none") return std::nullopt;
      if (auto problem = check_name(v, simulation::method_names(), "method")) return problem;
      if (axis == "reference") return check_reference_method(v.as_string());
      return std::nullopt;
    }
    if (axis == "variant") return check_variant(v);
    if (axis.starts_with("p.")) {
      // A number, or a whole list (matrix) parameter: numbers (rows of numbers); the sizes
      // are checked per point against the model. A NaN would fail every point later as a
      // "step size underflow"; infinities are checked per point (a diagram's limits may be).
      if (v.is_number()) return not_nan(v.as_number(), "parameter values");
      if (!v.is_list()) return not_a_number(v);
      for (const auto& item : v.as_list()) {
        for (const double number : item.as_numbers()) {
          if (auto problem = not_nan(number, "parameter values")) return problem;
        }
      }
      return std::nullopt;
    }
    if (axis == "fmi_type") return check_name(v, {"model_exchange", "co_simulation"}, "fmi_type");
    if (axis == "h" || axis == "rtol" || axis == "sample_time") {
      return check_number(v, axis != "sample_time");
    }
    if (axis == "max_step") {
      if (auto problem = check_number(v, false)) return problem;
      if (v.as_number() < 0.0) return std::string("expected a number >= 0 (0: no bound)");
      return std::nullopt;
    }
    if (axis == "step_hold") {
      if (auto problem = check_number(v, false)) return problem;
      if (!(v.as_number() >= 0.0 && v.as_number() <= 1.0)) {
        return std::string("expected a number in [0, 1] (0: off)");
      }
      return std::nullopt;
    }
    if (axis == "t0" || axis == "tf") return check_number(v, false);
    if (axis == "seed") return check_seed(v);
    if (axis == "events" && !v.is_bool()) return "expected true or false";
    if (axis == "nonlinear") return check_name(v, {"fixed_point", "newton"}, "nonlinear solver");
    if (axis == "atol") {
      // As the simulator requires it at run time (a zero atol has no error scale at x = 0).
      for (const double tolerance : v.as_numbers()) {
        if (!(std::isfinite(tolerance) && tolerance > 0.0)) {
          return fmt::format(
              "expected positive finite numbers (one atol, or one per state), "
              "found {}",
              tolerance);
        }
      }
      return std::nullopt;
    }
    if (axis == "x0") {
      // A NaN or infinite initial state fails every point later as a "step size underflow".
      for (const double number : v.as_numbers()) {
        if (!std::isfinite(number)) {
          return fmt::format("expected finite numbers (the initial state), found {}",
                             yaml_spelling(number));
        }
      }
      return std::nullopt;
    }
    if (axis == "u" && fmu_table_of_inputs(v)) return std::nullopt;  // checked per point
    if (axis == "u" || axis.starts_with("u.")) {
      (void)input_from(v, 0);
      return std::nullopt;
    }
  } catch (const InputError& e) {
    // At the element of the signal to blame, when the value says where it is.
    if (e.where().line > 0) return framework::AxisProblem(e.where(), e.message());
    return e.message();
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

}  // namespace simverify::components
