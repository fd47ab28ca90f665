#include "coffee_cup.hpp"

#include <cmath>

namespace coffee {

namespace sim = simverify::simulation;

namespace {

// States, parameters, defaults: handed to Model, which answers info() with them.
sim::ModelInfo coffee_cup_info() {
  sim::ModelInfo info;
  info.name = "coffee_cup";
  info.description = "Newton's law of cooling: T' = -k (T - T_room)";
  info.states = {"T"};
  info.outputs = {"T"};
  info.parameters = {{"k", 0.05, "1/min", "cooling rate of the cup"},
                     {"T_room", 21.0, "degC", "room temperature"}};
  info.default_x0 = sim::Vector::Constant(1, 90.0);  // freshly brewed, degC
  info.default_tf = 30.0;                            // minutes
  return info;
}

}  // namespace

CoffeeCup::CoffeeCup() : sim::Model(coffee_cup_info()) {}

void CoffeeCup::rhs(double /*t*/, const sim::Vector& x, const sim::Context& context,
                    sim::Vector& dxdt) const {
  dxdt.resize(1);
  dxdt[0] = -context.p[0] * (x[0] - context.p[1]);
}

void CoffeeCup::exact_solution(double t, double t0, const sim::Vector& x0,
                               const sim::Context& context, sim::Vector& x) const {
  x.resize(1);
  x[0] = context.p[1] + (x0[0] - context.p[1]) * std::exp(-context.p[0] * (t - t0));
}

}  // namespace coffee
