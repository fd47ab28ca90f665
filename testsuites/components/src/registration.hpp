#pragma once
// Internal: the built-in components, one factory per file.
#include <simverify/framework/component.hpp>

namespace simverify::components {

[[nodiscard]] framework::Component simulate_component();
[[nodiscard]] framework::Component step_component();

// Rejects unknown model and method names before anything runs, listing the known ones.
[[nodiscard]] std::optional<std::string> check_model_and_method_axes(std::string_view axis,
                                                                     const framework::Value& v);

}  // namespace simverify::components
