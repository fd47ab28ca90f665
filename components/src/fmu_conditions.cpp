#include "fmu_conditions.hpp"

#include "conditions.hpp"
#include "input_conditions.hpp"

#include <simverify/core/text.hpp>
#include <simverify/fmu/co_simulation.hpp>
#include <simverify/fmu/model_exchange.hpp>
#include <simverify/framework/diagnostics.hpp>
#include <simverify/framework/point_note.hpp>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Measurement;
using framework::TimeSeries;
using framework::Value;

// "FMU 'X.fmu' has no parameter 'mux' (did you mean 'mu'?); its parameters: mu"
std::optional<std::string> check_fmu_name(const fmu::Fmu& fmu, const std::string& what,
                                          const std::string& name,
                                          const std::vector<std::string>& known) {
  if (std::find(known.begin(), known.end(), name) != known.end()) return std::nullopt;
  return fmu_name(fmu) + " has no " + what + " '" + name + "'" +
         framework::did_you_mean(name, known) + "; its " + what + "s: " + core::join_or_none(known);
}

// `u: {table: {file: inputs.csv}}` without a column: one column per FMU input, by name.
const Value* table_of_inputs(const Value& u) {
  if (!u.is_map()) return nullptr;
  const Value* table = u.find("table");
  if (table == nullptr || !table->is_map() || table->find("column") != nullptr) return nullptr;
  return table->find("file");
}

// Noise on an input draws from the stream of (requirement id, axis, seed), as every input
// (input_conditions.hpp).
fmu::NamedInputs named_inputs(const Condition& c, const fmu::ModelDescription& d,
                              std::string_view requirement) {
  fmu::NamedInputs inputs;
  const auto seed = static_cast<std::uint64_t>(c.number_or("seed", 0.0));
  for (const auto& [axis, value] : c.entries()) {
    if (axis.starts_with("u.")) {
      inputs.emplace_back(std::string(axis.substr(2)),
                          input_from(*value, seed, {.requirement = requirement, .axis = axis}));
    }
  }
  if (const Value* u = c.find("u")) {
    if (const Value* file = table_of_inputs(*u)) {
      const std::string csv = path_relative_to_file(*file).string();
      const Value* hold = u->find("hold");
      for (const auto& name : d.names(d.inputs)) {
        simulation::InputPtr signal = simulation::table_input(csv, name);
        if (hold != nullptr) signal = simulation::hold(signal, hold->as_number());
        inputs.emplace_back(name, std::move(signal));
      }
    }
  }
  return inputs;
}

// What the FMU logged becomes the point's note: shown if the FMU then crashes or hangs.
fmu::LogObserver note_log(const fmu::Fmu& fmu) {
  return [prefix = fmu_name(fmu) + " logged: "](std::string_view messages) {
    framework::note_for_point(prefix + std::string(messages));
  };
}

// A co-simulation's t0, tf, h and tolerance: the point's, else the DefaultExperiment's.
fmu::CoSimulationSettings co_simulation_times(const Condition& c, const fmu::ModelDescription& d) {
  fmu::CoSimulationSettings s;
  s.t0 = c.number_or("t0", d.default_experiment.start_time.value_or(0.0));
  s.tf = c.number_or("tf", d.default_experiment.stop_time.value_or(s.t0 + 1.0));
  s.step = c.number_or("h", 0.0);
  s.tolerance =
      c.has("rtol") ? std::optional<double>(c.number("rtol")) : d.default_experiment.tolerance;
  return s;
}

// " (the FMU's DefaultExperiment gives t0 = 0 (startTime), tf = 5 (stopTime))": where the
// settings a point does not give came from, for a message about them.
std::string defaults_taken(const Condition& c, const fmu::Fmu& fmu) {
  const fmu::DefaultExperiment& e = fmu.description().default_experiment;
  std::vector<std::string> taken;
  const auto note = [&](const char* axis, const char* attribute, std::optional<double> value) {
    if (!c.has(axis) && value) {
      std::ostringstream text;
      text << axis << " = " << *value << " (" << attribute << ")";
      taken.push_back(text.str());
    }
  };
  note("t0", "startTime", e.start_time);
  note("tf", "stopTime", e.stop_time);
  if (taken.empty()) return "";
  return " (the FMU's DefaultExperiment gives " + core::join(taken) + ")";
}

TimeSeries series(const std::vector<double>& time, const std::string& name,
                  std::vector<double> values) {
  TimeSeries ts;
  ts.time = time;
  ts.names = {name};
  ts.columns = {std::move(values)};
  return ts;
}

}  // namespace

std::string fmu_name(const fmu::Fmu& fmu) {
  return "FMU '" + fmu.path().filename().string() + "'";
}

bool names_fmu(const Value& model) {
  return model.is_string() && model.as_string().size() > 4 && model.as_string().ends_with(".fmu");
}

std::shared_ptr<const fmu::Fmu> fmu_of(const Value& model) {
  try {
    return fmu::Fmu::open(path_relative_to_file(model));
  } catch (const fmu::FmuError& e) {
    throw std::invalid_argument(e.what());
  }
}

fmu::Interface fmi_type(const Condition& c, const fmu::Fmu& fmu) {
  const Value* type = c.find("fmi_type");
  if (type == nullptr) return fmu.default_interface();
  if (!type->is_string() ||
      (type->as_string() != "model_exchange" && type->as_string() != "co_simulation")) {
    throw std::invalid_argument("fmi_type must be model_exchange or co_simulation, not " +
                                type->str());
  }
  const auto wanted = type->as_string() == "model_exchange" ? fmu::Interface::model_exchange
                                                            : fmu::Interface::co_simulation;
  if (!fmu.implements(wanted)) {
    const auto other = wanted == fmu::Interface::model_exchange ? fmu::Interface::co_simulation
                                                                : fmu::Interface::model_exchange;
    throw std::invalid_argument(fmu_name(fmu) + " has no " + to_string(wanted) +
                                " interface; it offers: " + to_string(other));
  }
  return wanted;
}

bool is_co_simulation(const Condition& c) {
  const Value* model = c.find("model");
  return model != nullptr && names_fmu(*model) &&
         fmi_type(c, *fmu_of(*model)) == fmu::Interface::co_simulation;
}

std::unique_ptr<simulation::Model> fmu_model(const Condition& c, std::string_view requirement) {
  const auto fmu = fmu_of(c.at("model"));
  if (fmi_type(c, *fmu) != fmu::Interface::model_exchange) {
    throw std::invalid_argument(fmu_name(*fmu) +
                                " runs as co_simulation, which only `simulate` (and the studies "
                                "built on it) can run; this needs fmi_type: model_exchange");
  }
  try {
    return std::make_unique<fmu::ModelExchangeModel>(
        fmu, named_inputs(c, fmu->description(), requirement), note_log(*fmu));
  } catch (const fmu::FmuError& e) {
    throw std::invalid_argument(e.what());
  }
}

void apply_fmu_settings(const Condition& c, const fmu::Fmu& fmu, simulation::SimulatorSettings& s) {
  const fmu::DefaultExperiment& experiment = fmu.description().default_experiment;
  if (!c.has("t0") && experiment.start_time) s.t0 = *experiment.start_time;
  if (!c.has("tf")) s.tf = experiment.stop_time.value_or(s.t0 + 1.0);
  if (experiment.tolerance) {
    // The DefaultExperiment's tolerance is relative; FMI tools use it for atol as well
    // (scaled by the states' nominal values, which are 1 here).
    if (!c.has("rtol")) s.stepper.rtol = *experiment.tolerance;
    if (!c.has("atol")) s.stepper.atol = {*experiment.tolerance};
  }
  if (const Value* u = c.find("u"); u != nullptr && table_of_inputs(*u) != nullptr) {
    s.input = nullptr;  // the table's columns are bound to the inputs by name
  }
}

bool fmu_table_of_inputs(const Value& u) {
  return table_of_inputs(u) != nullptr;
}

Measurement simulate_co_simulation(const Condition& c, std::string_view requirement) {
  const auto fmu = fmu_of(c.at("model"));
  const fmu::ModelDescription& d = fmu->description();
  fmu::CoSimulationSettings s = co_simulation_times(c, d);
  for (const auto& [axis, value] : c.entries()) {
    if (axis.starts_with("p."))
      s.parameters.emplace_back(std::string(axis.substr(2)), value->as_number());
  }
  s.inputs = named_inputs(c, d, requirement);
  s.on_log = note_log(*fmu);
  if (const Value* u = c.find("u"); u != nullptr && table_of_inputs(*u) == nullptr) {
    s.input = input_from(*u, static_cast<std::uint64_t>(c.number_or("seed", 0.0)),
                         {.requirement = requirement, .axis = "u"});
  }
  fmu::CoSimulationResult run;
  try {
    run = fmu::run_co_simulation(fmu, s);
  } catch (const fmu::FmuError& e) {
    throw std::runtime_error(e.what());
  }
  Measurement m;
  m.set("t_end", run.t_end);
  m.set("steps", static_cast<double>(run.steps));
  m.set("terminated", run.terminated ? 1.0 : 0.0);
  TimeSeries all;
  all.time = run.time;
  all.names = run.outputs;
  all.columns = run.values;
  for (std::size_t j = 0; j < run.outputs.size(); ++j) {
    m.set("y." + run.outputs[j], series(run.time, run.outputs[j], run.values[j]));
  }
  m.set("trajectory", std::move(all));
  return m;
}

std::optional<std::string> check_fmu_point(const Condition& c) {
  const auto fmu = fmu_of(c.at("model"));
  const fmu::ModelDescription& d = fmu->description();
  const fmu::Interface interface = fmi_type(c, *fmu);
  if (const Value* variant = c.find("variant")) {
    return fmu_name(*fmu) + " has no variants (variant: " + variant->str() + ")";
  }
  const std::vector<std::string> parameters = d.names(d.parameters);
  const std::vector<std::string> inputs = d.names(d.inputs);
  for (const auto& [axis, value] : c.entries()) {
    std::optional<std::string> problem;
    if (axis.starts_with("p.")) {
      problem = check_fmu_name(*fmu, "parameter", std::string(axis.substr(2)), parameters);
    } else if (axis.starts_with("u.")) {
      problem = check_fmu_name(*fmu, "input", std::string(axis.substr(2)), inputs);
    }
    if (problem) return problem;
  }
  if (const Value* u = c.find("u")) {
    if (const Value* file = table_of_inputs(*u)) {
      const std::string csv = path_relative_to_file(*file).string();
      for (const auto& name : inputs) (void)simulation::table_input(csv, name);  // throws
    } else if (inputs.size() != 1) {
      return fmu_name(*fmu) + " has " + std::to_string(inputs.size()) + " inputs (" +
             core::join_or_none(inputs) +
             "): u drives a single input; give each as u.<name>, or u: {table: {file: "
             "inputs.csv}} with a column per input";
    }
  }
  const std::size_t states = d.states.size();
  if (interface == fmu::Interface::model_exchange) {
    if (const Value* x0 = c.find("x0"); x0 != nullptr && x0->as_numbers().size() != states) {
      return "x0 has " + std::to_string(x0->as_numbers().size()) + " values, " + fmu_name(*fmu) +
             " has " + std::to_string(states) + " continuous states (" +
             core::join_or_none(d.names(d.states)) + ")";
    }
    if (const Value* atol = c.find("atol")) {
      const std::size_t n = atol->as_numbers().size();
      if (n != 1 && n != states) {
        return "atol has " + std::to_string(n) + " values: give one, or one per state of " +
               fmu_name(*fmu) + " (" + std::to_string(states) + ")";
      }
    }
    // Validate knows what run knows, as for the built-in models (check_simulation_point): the
    // simulator's checks of the settings, with the DefaultExperiment's t0, tf and tolerance.
    try {
      const auto model = fmu_model(c, "");
      (void)simulation::Simulator(*model, simulator_settings(c, *model));
    } catch (const std::invalid_argument& e) {
      return e.what() + defaults_taken(c, *fmu);
    }
  } else {
    if (c.has("x0")) {
      return "x0 sets continuous states, which a co_simulation FMU keeps to itself "
             "(fmi_type: model_exchange sets them)";
    }
    if (!c.has("h") && !fmu::communication_step(d, 0.0)) {
      return fmu_name(*fmu) + " as co_simulation needs h, the communication step (its " +
             "DefaultExperiment gives no stepSize)";
    }
    // What run_co_simulation checks before it starts: tf > t0, a step count it can take.
    try {
      fmu::check_co_simulation_settings(*fmu, co_simulation_times(c, d));
    } catch (const fmu::FmuError& e) {
      return e.what() + defaults_taken(c, *fmu);
    }
    // The FMU reads its inputs only at communication points: a noise draw between two of them
    // would go unseen and the one it sees would act for a whole step, so the noise would not
    // be the white noise of the intensity asked for.
    const double step = c.has("h") ? c.number("h") : *fmu::communication_step(d, 0.0);
    try {
      check_noise_holds(c, step,
                        "a communication point at each draw (" + fmu_name(*fmu) +
                            " as co_simulation reads its inputs only there): h must be hold / n");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
  }
  return std::nullopt;
}

std::optional<std::string> check_fmu_measure(const Value& model, const Condition& c,
                                             std::string_view measure) {
  const auto fmu = fmu_of(model);
  const fmu::ModelDescription& d = fmu->description();
  if (measure.starts_with("y.")) {
    return check_fmu_name(*fmu, "output", std::string(measure.substr(2)), d.names(d.outputs));
  }
  if (fmi_type(c, *fmu) != fmu::Interface::co_simulation && measure == "terminated") {
    return fmu_name(*fmu) +
           " as model_exchange has no 'terminated': only a co-simulation FMU "
           "ends a run itself (fmi_type: co_simulation)";
  }
  if (fmi_type(c, *fmu) == fmu::Interface::co_simulation) {
    static const std::vector<std::string> co_simulation_measures = {"t_end", "steps", "terminated",
                                                                    "trajectory"};
    if (std::find(co_simulation_measures.begin(), co_simulation_measures.end(), measure) ==
        co_simulation_measures.end()) {
      return fmu_name(*fmu) + " as co_simulation measures y.<output>, " +
             core::join_or_none(co_simulation_measures) + ", not '" + std::string(measure) + "'";
    }
  }
  return std::nullopt;
}

}  // namespace simverify::components
