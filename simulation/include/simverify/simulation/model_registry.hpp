#pragma once
// Models by name, as used in requirement files (`model: exponential`, `variant: linear`).
#include <simverify/simulation/model.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace simverify::simulation {

using ModelFactory = std::function<std::unique_ptr<Model>(const std::string& variant)>;

// Registers a model factory (the registry is the one piece of global state) with the
// variants it accepts: none (the factory gets ""), or a list whose first entry is the default.
void register_model(const std::string& name, ModelFactory factory,
                    std::vector<std::string> variants = {});

// Creates a model; throws std::invalid_argument listing known names/variants when unknown.
[[nodiscard]] std::unique_ptr<Model> make_model(const std::string& name,
                                                const std::string& variant = "");

// Sorted names of the registered models.
[[nodiscard]] std::vector<std::string> model_names();

// The variants a registered model accepts, default first; empty when it has none. Throws
// std::invalid_argument listing the known models when the name is unknown.
[[nodiscard]] std::vector<std::string> model_variants(const std::string& name);

}  // namespace simverify::simulation
