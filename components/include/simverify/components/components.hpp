#pragma once
// Binds the simulator stack to the framework: registers `simulate`, `step` and the other
// built-in components (format page, "Built-in components and measures").
#include <simverify/framework/component.hpp>

namespace simverify::components {

void register_builtin_components(framework::ComponentRegistry& registry);

}  // namespace simverify::components
