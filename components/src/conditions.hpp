#pragma once
// Internal: turning a framework Condition into simulator settings (the well-known axes of the
// format page).
#include <simverify/framework/component.hpp>
#include <simverify/framework/grid.hpp>
#include <simverify/simulation/model.hpp>
#include <simverify/simulation/simulator.hpp>

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace simverify::components {

// The model named by `model:` (and `variant:`): the one place a model name resolves. A path
// ending in .fmu is an FMU (its model exchange interface; fmu_conditions.hpp), one ending in
// .yaml or .yml a block diagram (diagram_conditions.hpp), any other name a registered model
// (model_registry.hpp).
// `requirement` (the id) keys the noise streams of a diagram's or an FMU's inputs, as
// simulator_settings keys the run's u (input_conditions.hpp).
[[nodiscard]] std::unique_ptr<simulation::Model> model_for(const framework::Condition& c,
                                                           std::string_view requirement = {});

// The id of the point's requirement, "" when there is none (a point evaluated in code).
[[nodiscard]] std::string_view requirement_of(const framework::PointContext& context);

// method, h, rtol, atol, t0, tf, x0, u (with seed), p.<name>, events, sample_time,
// nonlinear (fixed_point | newton), max_step and step_hold from the condition; absent axes keep the
// simulator's defaults (method ode45, t0 0, tf the model's default_tf). `requirement` (the
// id) separates the noise streams of different requirements (input_conditions.hpp).
[[nodiscard]] simulation::SimulatorSettings simulator_settings(const framework::Condition& c,
                                                               const simulation::Model& model,
                                                               std::string_view requirement = {});

// The sample_time a run uses: the condition's, or with a noise input and none given the
// noise's hold, so every stage of a step sees the draw of its interval (the simulation-practice
// article's noise update). Throws std::invalid_argument when a noise's hold is not a whole number
// of sampling intervals.
[[nodiscard]] double sampling_for_noise(const framework::Condition& c);
// A condition's axes with their values at its point, as Condition::entries() gives them.
using ConditionEntries = std::vector<std::pair<std::string_view, const framework::Value*>>;
// The same over entries already taken from c (a caller that reads them too takes them once).
[[nodiscard]] double sampling_for_noise(const framework::Condition& c,
                                        const ConditionEntries& entries);

// Throws std::invalid_argument when a noise input's hold is not a whole number of
// `interval`s; `needs` says why the interval matters ("sample_time must be hold / n").
void check_noise_holds(const framework::Condition& c, double interval, std::string_view needs);

}  // namespace simverify::components
