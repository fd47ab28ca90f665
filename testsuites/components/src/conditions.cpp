#include "conditions.hpp"

#include <simverify/simulation/model_registry.hpp>

#include <stdexcept>

namespace simverify::components {

using framework::Condition;
using simulation::Vector;

std::unique_ptr<simulation::Model> model_for(const Condition& c) {
  return simulation::make_model(c.text("model"), c.text_or("variant", ""));
}

simulation::SimulatorSettings simulator_settings(const Condition& c,
                                                 const simulation::Model& model) {
  simulation::SimulatorSettings s;
  s.method = c.text_or("method", "ode45");
  s.t0 = c.number_or("t0", 0.0);
  s.tf = c.number_or("tf", s.t0 + model.info().default_tf);
  s.h = c.number_or("h", 0.0);
  s.stepper.rtol = c.number_or("rtol", s.stepper.rtol);
  if (const auto* atol = c.find("atol")) s.stepper.atol = atol->as_numbers();
  if (const auto* x0 = c.find("x0")) {
    const auto values = x0->as_numbers();
    s.x0 = Eigen::Map<const Vector>(values.data(), static_cast<Eigen::Index>(values.size()));
  }
  for (const auto& [name, value] : c.entries()) {
    if (name.starts_with("p.")) {
      s.parameters.emplace_back(std::string(name.substr(2)), value->as_number());
    }
  }
  return s;
}

}  // namespace simverify::components
