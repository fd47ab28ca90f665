#include "coffee_cup.hpp"

#include <cmath>

namespace coffee {

namespace sim = simverify::simulation;

CoffeeCup::CoffeeCup() {
  info_.name = "coffee_cup";
  info_.description = "Newton's law of cooling: T' = -k (T - T_room)";
  info_.states = {"T"};
  info_.outputs = {"T"};
  info_.parameters = {{"k", 0.05, "1/min", "cooling rate of the cup"},
                      {"T_room", 21.0, "degC", "room temperature"}};
  info_.default_x0 = sim::Vector::Constant(1, 90.0);  // freshly brewed, degC
  info_.default_tf = 30.0;                            // minutes
}

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
