#pragma once
// Models by name, as used in requirement files (`model: exponential`, `variant: linear`).
#include <simverify/simulation/model.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace simverify::simulation {

using ModelFactory = std::function<std::unique_ptr<Model>(const std::string& variant)>;

// Registers a model factory (the registry is the one piece of global state).
void register_model(const std::string& name, ModelFactory factory);

// Creates a model; throws std::invalid_argument listing known names/variants when unknown.
[[nodiscard]] std::unique_ptr<Model> make_model(const std::string& name,
                                                const std::string& variant = "");

// Sorted names of the registered models.
[[nodiscard]] std::vector<std::string> model_names();

}  // namespace simverify::simulation
