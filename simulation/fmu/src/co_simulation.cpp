// Co-simulation (co_simulation.hpp): the master algorithm of FMI 2.0 4.2.4 / FMI 3.0 4.2.1 for
// one FMU, with fixed communication points t_k = t0 + k h computed from k (no accumulated
// round-off), the last one at tf.
#include <simverify/fmu/co_simulation.hpp>

#include "input_binding.hpp"
#include "instance.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

namespace simverify::fmu {
namespace {

// A run of more communication steps is a mistyped h, not a simulation.
constexpr double kMaxSteps = 1e8;

// 1e-300, 0.01, 20: the shortest text that reads back as the same double (not "0.000000").
std::string shortest(double value) {
  std::array<char, 32> text{};
  const auto result = std::to_chars(text.data(), text.data() + text.size(), value);
  return {text.data(), result.ptr};
}

}  // namespace

std::optional<double> communication_step(const ModelDescription& description, double step) {
  if (step > 0.0) return step;
  const auto& size = description.default_experiment.step_size;
  if (size && *size > 0.0) return size;
  return std::nullopt;
}

void check_co_simulation_settings(const Fmu& fmu, const CoSimulationSettings& settings) {
  const ModelDescription& d = fmu.description();
  const std::string name = fmu.path().filename().string();
  if (!fmu.implements(Interface::co_simulation)) {
    throw FmuError("FMU '" + name + "' has no co-simulation interface (it offers model_exchange)");
  }
  const auto h = communication_step(d, settings.step);
  if (!h) {
    throw FmuError("FMU '" + name + "': co-simulation needs a communication step h (its " +
                   "DefaultExperiment gives no stepSize)");
  }
  if (!(std::isfinite(settings.t0) && std::isfinite(settings.tf) && settings.tf > settings.t0)) {
    throw FmuError("FMU '" + name + "': co-simulation needs finite t0 < tf, got t0 = " +
                   shortest(settings.t0) + ", tf = " + shortest(settings.tf));
  }
  if (!std::isfinite(*h)) {
    throw FmuError("FMU '" + name + "': the communication step h = " + shortest(*h) +
                   " is not a finite number");
  }
  const double span = settings.tf - settings.t0;
  if (span / *h > kMaxSteps) {
    throw FmuError(
        "FMU '" + name + "': co-simulation with h = " + shortest(*h) + " over " + shortest(span) +
        " s would take more than 1e8 steps (h from " +
        (settings.step > 0.0 ? "the condition h" : "the FMU's DefaultExperiment stepSize") + ")");
  }
  if (settings.tolerance && !(std::isfinite(*settings.tolerance) && *settings.tolerance > 0.0)) {
    throw FmuError("FMU '" + name + "': the tolerance " + shortest(*settings.tolerance) +
                   " for its solver must be a finite number > 0");
  }
}

CoSimulationResult run_co_simulation(std::shared_ptr<const Fmu> fmu,
                                     const CoSimulationSettings& settings) {
  check_co_simulation_settings(*fmu, settings);
  const ModelDescription& d = fmu->description();
  const std::string name = fmu->path().filename().string();
  const double h = *communication_step(d, settings.step);
  const double span = settings.tf - settings.t0;

  std::vector<std::uint32_t> parameter_references;
  std::vector<double> parameter_values;
  for (const auto& [parameter, value] : settings.parameters) {
    bool found = false;
    for (const std::size_t p : d.parameters) {
      if (d.variables[p].name != parameter) continue;
      parameter_references.push_back(d.variables[p].value_reference);
      parameter_values.push_back(value);
      found = true;
    }
    if (!found) throw FmuError("FMU '" + name + "' has no parameter '" + parameter + "'");
  }
  detail::InputBinding inputs(d, settings.inputs);
  const auto run_input = [&](double t) -> std::optional<double> {
    if (!settings.input) return std::nullopt;
    return settings.input->at(t).value;
  };

  CoSimulationResult result;
  result.outputs = d.names(d.outputs);
  result.values.assign(d.outputs.size(), {});
  const std::vector<std::uint32_t> outputs = d.value_references(d.outputs);
  std::vector<double> y(outputs.size());
  const auto record = [&](double t, detail::Instance& instance) {
    instance.get_reals(outputs, y);
    result.time.push_back(t);
    for (std::size_t j = 0; j < y.size(); ++j) result.values[j].push_back(y[j]);
  };

  const auto instance =
      detail::instantiate(std::move(fmu), Interface::co_simulation, settings.on_log);
  std::vector<std::uint32_t> input_references;
  std::vector<double> input_values;
  instance->set_reals(parameter_references, parameter_values);
  instance->enter_initialization(settings.t0, settings.tf, settings.tolerance);
  inputs.values_at(settings.t0, run_input(settings.t0), input_references, input_values);
  instance->set_reals(input_references, input_values);
  instance->exit_initialization();
  record(settings.t0, *instance);

  // Inputs are set at each communication point before its outputs are read, so a direct
  // feed-through shows u(t_k) at t_k; the FMU holds them over the step that follows.
  const auto steps = static_cast<long>(std::ceil(span / h - 1e-9));
  double t = settings.t0;
  for (long k = 0; k < steps; ++k) {
    const double t_next =
        k + 1 == steps ? settings.tf : settings.t0 + static_cast<double>(k + 1) * h;
    const detail::StepOutcome outcome = instance->do_step(t, t_next - t);
    ++result.steps;
    if (outcome.terminate) {
      t = std::isfinite(outcome.reached) ? outcome.reached : t;
      result.terminated = true;
      result.message = "the FMU ended the simulation at t = " + std::to_string(t);
      record(t, *instance);
      break;
    }
    t = t_next;
    inputs.values_at(t, run_input(t), input_references, input_values);
    instance->set_reals(input_references, input_values);
    record(t, *instance);
  }
  result.t_end = t;
  return result;
}

}  // namespace simverify::fmu
