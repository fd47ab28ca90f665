#include <simverify/simulation/method_fit.hpp>
#include <simverify/simulation/method_registry.hpp>

namespace simverify::simulation {
namespace {

std::string methods_where(bool second_order) {
  std::string list;
  for (const auto& name : method_names()) {
    if (method_info(name).second_order != second_order) continue;
    list += (list.empty() ? "" : ", ") + name;
  }
  return list;
}

}  // namespace

std::optional<std::string> method_misfit(const std::string& method, const Model& model,
                                         std::span<const double> p) {
  return method_misfit(method_info(method), model, p);
}

std::optional<std::string> method_misfit(const MethodInfo& method, const Model& model,
                                         std::span<const double> p) {
  if (!method.second_order) return std::nullopt;
  const ModelInfo& info = model.info();
  std::string why;
  if (!info.second_order) {
    why = "model '" + info.name + "' does not declare that structure (positions, velocities, " +
          "an acceleration g)";
  } else if (auto dependence = model.velocity_dependence(p)) {
    why = "for model '" + info.name + "' " + *dependence;
  } else {
    return std::nullopt;
  }
  return "method '" + method.name + "' is a Runge-Kutta-Nystrom method for x'' = g(t, q), whose " +
         "acceleration does not depend on the velocity; " + why +
         ". Methods that fit: " + methods_where(false);
}

}  // namespace simverify::simulation
