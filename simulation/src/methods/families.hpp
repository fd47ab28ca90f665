#pragma once
// Internal: each family of methods registers its names in its own file, so adding a family
// touches no other file. Called once, when the method registry is first used.
#include <simverify/simulation/method_registry.hpp>

#include <functional>

namespace simverify::simulation::detail {

using AddMethod = std::function<void(MethodInfo, StepperFactory)>;

void add_explicit_methods(const AddMethod& add);  // methods/explicit_methods.cpp
void add_implicit_methods(const AddMethod& add);  // methods/implicit_methods.cpp
void add_nystrom_methods(const AddMethod& add);   // methods/nystrom_methods.cpp

}  // namespace simverify::simulation::detail
