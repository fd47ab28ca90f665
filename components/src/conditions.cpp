#include "conditions.hpp"

#include "diagram_conditions.hpp"
#include "fmu_conditions.hpp"
#include "input_conditions.hpp"
#include "parameter_overrides.hpp"

#include <simverify/fmu/model_exchange.hpp>
#include <simverify/framework/requirement.hpp>
#include <simverify/simulation/model_registry.hpp>

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace simverify::components {

using framework::Condition;
using simulation::Vector;

std::unique_ptr<simulation::Model> model_for(const Condition& c, std::string_view requirement) {
  if (names_fmu(c.at("model"))) return fmu_model(c, requirement);
  if (names_diagram(c.at("model"))) return diagram_model(c, requirement);
  return simulation::make_model(c.text("model"), c.text_or("variant", ""));
}

std::string_view requirement_of(const framework::PointContext& context) {
  return context.requirement != nullptr ? std::string_view(context.requirement->id) : "";
}

namespace {

bool is_input_axis(std::string_view axis) {
  return axis == "u" || axis.starts_with("u.");
}

void check_noise_holds(const ConditionEntries& entries, double interval, std::string_view needs) {
  for (const auto& [axis, value] : entries) {
    if (!is_input_axis(axis)) continue;
    const auto hold = noise_hold(*value);
    if (!hold || !(*hold > 0.0)) continue;
    const double ratio = *hold / interval;
    if (!(std::abs(ratio - std::round(ratio)) <= 1e-9 * ratio) || std::round(ratio) < 1.0) {
      throw std::invalid_argument(fmt::format("{}: noise held over {:g} s needs {} (got {:g} s)",
                                              axis, *hold, needs, interval));
    }
  }
}

}  // namespace

void check_noise_holds(const Condition& c, double interval, std::string_view needs) {
  check_noise_holds(c.entries(), interval, needs);
}

double sampling_for_noise(const Condition& c) {
  return sampling_for_noise(c, c.entries());
}

double sampling_for_noise(const Condition& c, const ConditionEntries& entries) {
  double sample_time = c.number_or("sample_time", 0.0);
  for (const auto& [axis, value] : entries) {
    if (!is_input_axis(axis)) continue;
    const auto hold = noise_hold(*value);
    // The article's noise update: one draw per sample.
    if (sample_time == 0.0 && hold && *hold > 0.0) sample_time = *hold;
  }
  if (sample_time > 0.0) {
    check_noise_holds(entries, sample_time,
                      "sampling instants at its draws: sample_time must be hold / n");
  }
  return sample_time;
}

simulation::SimulatorSettings simulator_settings(const Condition& c, const simulation::Model& model,
                                                 std::string_view requirement) {
  simulation::SimulatorSettings s;
  s.method = c.text_or("method", "ode45");
  s.t0 = c.number_or("t0", 0.0);
  s.tf = c.number_or("tf", s.t0 + model.info().default_tf);
  s.h = c.number_or("h", 0.0);
  s.stepper.rtol = c.number_or("rtol", s.stepper.rtol);
  if (const auto* atol = c.find("atol")) s.stepper.atol = atol->as_numbers();
  s.stepper.max_step = c.number_or("max_step", 0.0);
  s.stepper.step_hold = c.number_or("step_hold", 0.0);
  if (const auto* nonlinear = c.find("nonlinear")) {
    const std::string& name = nonlinear->as_string();
    if (name == "fixed_point") {
      s.stepper.nonlinear = simulation::NonlinearSolver::fixed_point;
    } else if (name == "newton") {
      s.stepper.nonlinear = simulation::NonlinearSolver::newton;
    } else {
      throw std::invalid_argument("nonlinear must be fixed_point or newton, not '" + name + "'");
    }
  }
  if (const auto* x0 = c.find("x0")) {
    const auto values = x0->as_numbers();
    s.x0 = Eigen::Map<const Vector>(values.data(), static_cast<Eigen::Index>(values.size()));
  }
  const auto* fmu_model = dynamic_cast<const fmu::ModelExchangeModel*>(&model);
  if (const auto* u = c.find("u"); u != nullptr && !(fmu_model && fmu_table_of_inputs(*u))) {
    s.input = input_from(*u, static_cast<std::uint64_t>(c.number_or("seed", 0.0)),
                         {.requirement = requirement, .axis = "u"});
  }
  if (const auto* events = c.find("events")) s.events.enabled = events->as_bool();
  const ConditionEntries entries = c.entries();  // one pass for the noise and the p.* axes
  s.sample_time = sampling_for_noise(c, entries);
  for (const auto& [name, value] : entries) {
    if (name.starts_with("p.")) {
      for (auto& set : parameter_overrides(std::string(name.substr(2)), *value, model.info())) {
        s.parameters.push_back(std::move(set));
      }
    }
  }
  if (fmu_model != nullptr) apply_fmu_settings(c, fmu_model->fmu(), s);
  return s;
}

}  // namespace simverify::components
