#include "registration.hpp"

#include <simverify/components/components.hpp>

namespace simverify::components {

void register_builtin_components(framework::ComponentRegistry& registry) {
  registry.add(simulate_component());
  registry.add(step_component());
  registry.add(sensitivity_component());
  registry.add(assessment_component());
  registry.add(backward_component());
}

}  // namespace simverify::components
