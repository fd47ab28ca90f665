#include "registration.hpp"

#include <simverify/components/components.hpp>
#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/model_registry.hpp>

#include <algorithm>

namespace simverify::components {
namespace {

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::optional<std::string> check_model_and_method_axes(std::string_view axis,
                                                       const framework::Value& v) {
  auto check = [&](const std::vector<std::string>& known,
                   const char* what) -> std::optional<std::string> {
    if (!v.is_string()) return std::string("expected a ") + what + " name, found " + v.type_name();
    if (std::find(known.begin(), known.end(), v.as_string()) == known.end()) {
      return "unknown " + std::string(what) + " '" + v.as_string() + "'; known: " + join(known);
    }
    return std::nullopt;
  };
  if (axis == "model") return check(simulation::model_names(), "model");
  if (axis == "method") return check(simulation::method_names(), "method");
  return std::nullopt;
}

void register_builtin_components(framework::ComponentRegistry& registry) {
  registry.add(simulate_component());
  registry.add(step_component());
}

}  // namespace simverify::components
