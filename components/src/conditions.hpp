#pragma once
// Internal: turning a framework Condition into simulator settings (the well-known axes of the
// format page).
#include <simverify/framework/grid.hpp>
#include <simverify/simulation/model.hpp>
#include <simverify/simulation/simulator.hpp>

#include <memory>

namespace simverify::components {

// The model named by `model:` (and `variant:`): the one place a model name resolves. A path
// ending in .fmu is an FMU (its model exchange interface; fmu_conditions.hpp), one ending in
// .yaml or .yml a block diagram (diagram_conditions.hpp), any other name a registered model
// (model_registry.hpp).
[[nodiscard]] std::unique_ptr<simulation::Model> model_for(const framework::Condition& c);

// method, h, rtol, atol, t0, tf, x0, u (with seed), p.<name>, events, sample_time,
// nonlinear (fixed_point | newton) and max_step from the condition; absent axes keep the
// simulator's defaults (method ode45, t0 0, tf the model's default_tf).
[[nodiscard]] simulation::SimulatorSettings simulator_settings(const framework::Condition& c,
                                                               const simulation::Model& model);

}  // namespace simverify::components
