// simverify's command line with this project's model and component: the built-in components
// (simulate, sensitivity, monte_carlo, ...) find the coffee_cup model by name like any
// shipped model, and time_to_drink is a component beside them.
#include "coffee_cup.hpp"
#include "time_to_drink.hpp"

#include <simverify/components/components.hpp>
#include <simverify/framework/cli.hpp>
#include <simverify/simulation/model_registry.hpp>

#include <memory>
#include <stdexcept>

int main(int argc, char** argv) {
  simverify::simulation::register_model("coffee_cup", [](const std::string& variant) {
    if (!variant.empty()) throw std::invalid_argument("coffee_cup has no variants");
    return std::make_unique<coffee::CoffeeCup>();
  });
  auto& registry = simverify::framework::ComponentRegistry::global();
  simverify::components::register_builtin_components(registry);
  registry.add(coffee::time_to_drink_component());
  return simverify::framework::run_cli({argv, static_cast<std::size_t>(argc)}, registry);
}
