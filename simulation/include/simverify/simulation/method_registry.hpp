#pragma once
// Solution methods by name: the Simulink solver list (ode1 ... ode23tb) and the lecture's
// names (euler, heun, rk4, rk43, dopri54, implicit_euler, ...). Unknown names are an error
// listing the known ones.
#include <simverify/simulation/stepper.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace simverify::simulation {

struct MethodInfo {
  std::string name;
  StepControl control = StepControl::fixed;
  int order = 0;
  bool implicit = false;
  std::string description;
};

using StepperFactory = std::function<std::unique_ptr<Stepper>()>;

void register_method(MethodInfo info, StepperFactory factory);

[[nodiscard]] const MethodInfo& method_info(const std::string& name);
[[nodiscard]] std::unique_ptr<Stepper> make_stepper(const std::string& name);
[[nodiscard]] std::vector<std::string> method_names();

}  // namespace simverify::simulation
