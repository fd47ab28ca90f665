#pragma once
// An own component: how long the coffee takes to cool from `brewed` to `drinkable` degrees,
// simulated with the coffee_cup model until the temperature crosses the limit.
#include <simverify/framework/component.hpp>

namespace coffee {

[[nodiscard]] simverify::framework::Component time_to_drink_component();

}  // namespace coffee
