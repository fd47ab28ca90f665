// The `assessment` component against a closed-form cost functional.
#include <simverify/components/components.hpp>
#include <simverify/framework/grid.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <variant>

namespace fw = simverify::framework;

TEST(AssessmentComponent, SquaredDeviationOfTheExponential) {
  fw::ComponentRegistry registry;
  simverify::components::register_builtin_components(registry);
  fw::Grid grid;
  const std::vector<std::pair<std::string, fw::Value>> values = {{"model", "exponential"},
                                                                 {"method", "ode45"},
                                                                 {"rtol", 1e-10},
                                                                 {"atol", 1e-12},
                                                                 {"tf", 2.0},
                                                                 {"p.lambda", -0.75},
                                                                 {"x_ref", fw::Value::List{0.5}}};
  for (const auto& [name, value] : values) grid.add_group({{fw::Axis{name, {value}, {}}}});
  const auto m = registry.find("assessment")->evaluate(grid.point(0));
  // J = int_0^2 (e^{-0.75 t} - 0.5)^2 dt = (1 - e^-3)/1.5 - (1 - e^-1.5)/0.75 + 0.5.
  const double exact = (1 - std::exp(-3.0)) / 1.5 - (1 - std::exp(-1.5)) / 0.75 + 0.25 * 2.0;
  // ode45 at rtol 1e-10 with Gauss-Legendre on its dense output: ~1e-10 relative.
  EXPECT_NEAR(std::get<double>(*m.find("cost")), exact, 1e-8);
  EXPECT_NEAR(std::get<double>(*m.find("mean_cost")), exact / 2.0, 1e-8);
}
