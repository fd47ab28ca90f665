#pragma once
// Internal: a `model:` that is a path ending in .fmu (EXTERNAL-SYSTEMS.md, "FMUs"), resolved
// relative to the requirement file that names it, and the conditions that go with it:
// fmi_type, p.<name> (the FMU's parameters), u / u.<name> (its inputs), and the defaults of
// its DefaultExperiment (t0, tf, rtol, atol, and h for co-simulation).
#include <simverify/fmu/fmu.hpp>
#include <simverify/framework/grid.hpp>
#include <simverify/framework/measurement.hpp>
#include <simverify/simulation/simulator.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace simverify::components {

// True for a string ending in ".fmu".
[[nodiscard]] bool names_fmu(const framework::Value& model);

// "FMU 'X.fmu'", as messages name an FMU.
[[nodiscard]] std::string fmu_name(const fmu::Fmu& fmu);

// The FMU a `model:` value names, opened (checked and unpacked once per process). Throws
// std::invalid_argument with the value's file:line:column and what is wrong with the file.
[[nodiscard]] std::shared_ptr<const fmu::Fmu> fmu_of(const framework::Value& model);

// The interface a point uses: its `fmi_type`, else model exchange when the FMU has it.
[[nodiscard]] fmu::Interface fmi_type(const framework::Condition& c, const fmu::Fmu& fmu);

// True when the point's model is an FMU run as co-simulation.
[[nodiscard]] bool is_co_simulation(const framework::Condition& c);

// The FMU's model exchange interface as a model, its inputs bound to u.<name> (or to the
// columns of a `u: {table: {file}}` named like them).
[[nodiscard]] std::unique_ptr<simulation::Model> fmu_model(const framework::Condition& c,
                                                           std::string_view requirement);

// True for `u: {table: {file: inputs.csv}}` without a column: one column per FMU input.
[[nodiscard]] bool fmu_table_of_inputs(const framework::Value& u);

// The DefaultExperiment's t0, tf, rtol and atol where the point gives none, and the run's
// single input only for a one-input FMU (named inputs are bound to the model).
void apply_fmu_settings(const framework::Condition& c, const fmu::Fmu& fmu,
                        simulation::SimulatorSettings& settings);

// `simulate` with a co-simulation FMU: y.<name> (time series at the communication points),
// trajectory (all outputs), t_end and steps (communication steps).
[[nodiscard]] framework::Measurement simulate_co_simulation(const framework::Condition& c,
                                                            std::string_view requirement);

// Load-time check of a point whose model is an FMU: the interface it asks for, its p., u.
// and x0 against the FMU, and a communication step for co-simulation.
[[nodiscard]] std::optional<std::string> check_fmu_point(const framework::Condition& c);

// Load-time check of a measure y.<name> against the FMU's outputs (with "did you mean").
[[nodiscard]] std::optional<std::string> check_fmu_measure(const framework::Value& model,
                                                           const framework::Condition& c,
                                                           std::string_view measure);

}  // namespace simverify::components
