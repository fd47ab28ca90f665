#pragma once
// What the component tests share: the built-in registry, one grid point built from
// (axis, value) pairs, and a scalar measure that must exist.
#include <simverify/components/components.hpp>
#include <simverify/framework/grid.hpp>

#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace simverify::components::testing {

namespace fw = simverify::framework;
using Values = std::vector<std::pair<std::string, fw::Value>>;

inline const fw::ComponentRegistry& builtin_registry() {
  static const fw::ComponentRegistry registry = [] {
    fw::ComponentRegistry out;
    register_builtin_components(out);
    return out;
  }();
  return registry;
}

// Evaluates `component` at the single grid point given by `values`.
inline fw::Measurement evaluate(const std::string& component, const Values& values) {
  fw::Grid grid;
  for (const auto& [name, value] : values) grid.add_group({{fw::Axis{name, {value}, {}}}});
  return builtin_registry().find(component)->evaluate(grid.point(0));
}

inline double measure(const fw::Measurement& m, const char* name) {
  const auto* v = m.find(name);
  if (v == nullptr) throw std::runtime_error(std::string("missing measure ") + name);
  return std::get<double>(*v);
}

}  // namespace simverify::components::testing
