#include "time_to_drink.hpp"

#include "coffee_cup.hpp"

#include <simverify/simulation/simulator.hpp>

namespace coffee {

namespace fw = simverify::framework;
namespace sim = simverify::simulation;

namespace {

// The cooling curve crosses `drinkable` at the first accepted step at or below it; the
// answer is interpolated linearly within that step (the component's own, simple choice).
fw::Measurement time_to_drink(const fw::Condition& c) {
  const CoffeeCup cup;
  sim::SimulatorSettings settings;
  settings.method = "ode45";
  settings.tf = 120.0;
  settings.stepper.rtol = 1e-8;
  settings.stepper.atol = {1e-8};
  settings.x0 = sim::Vector::Constant(1, c.number_or("brewed", 90.0));
  settings.parameters = {{"k", c.number("k")}, {"T_room", c.number_or("room", 21.0)}};
  const double limit = c.number("drinkable");
  const auto run = sim::Simulator(cup, settings).run();
  const auto& time = run.trajectory.time;
  const auto& states = run.trajectory.states;
  double minutes = std::numeric_limits<double>::infinity();
  for (std::size_t i = 1; i < time.size(); ++i) {
    if (states[i][0] <= limit) {
      const double a = states[i - 1][0], b = states[i][0];
      minutes = time[i - 1] + (time[i] - time[i - 1]) * (a - limit) / (a - b);
      break;
    }
  }
  fw::Measurement m;
  m.set("minutes", minutes);
  return m;
}

}  // namespace

fw::Component time_to_drink_component() {
  fw::Component c;
  c.info.name = "time_to_drink";
  c.info.description = "minutes until the coffee cools to a drinkable temperature";
  c.info.axes = {"k", "brewed", "room", "drinkable"};
  c.info.measures = {"minutes"};
  c.evaluate = time_to_drink;
  // Checked by `validate` before anything runs: a rate must be positive. The error points at
  // the value; fw::AxisProblem(location, message) points at a place inside it instead.
  c.check_axis = [](std::string_view axis, const fw::Value& v) -> std::optional<fw::AxisProblem> {
    if (axis == "k" && (!v.is_number() || !(v.as_number() > 0.0))) {
      return "k must be a positive cooling rate (1/min)";
    }
    return std::nullopt;
  };
  return c;
}

}  // namespace coffee
