#pragma once
// Internal: turning a framework Condition into simulator settings (the well-known axes of the
// format page).
#include <simverify/framework/grid.hpp>
#include <simverify/simulation/model.hpp>
#include <simverify/simulation/simulator.hpp>

#include <memory>

namespace simverify::components {

// The model named by `model:` (and `variant:`).
[[nodiscard]] std::unique_ptr<simulation::Model> model_for(const framework::Condition& c);

// Method, t0, tf, h, tolerances, x0, u and p.<name> overrides from the condition.
[[nodiscard]] simulation::SimulatorSettings simulator_settings(const framework::Condition& c,
                                                               const simulation::Model& model);

}  // namespace simverify::components
