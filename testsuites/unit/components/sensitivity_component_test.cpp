// The `sensitivity` component against closed forms.
#include <simverify/components/components.hpp>
#include <simverify/framework/grid.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <variant>

namespace fw = simverify::framework;

namespace {

double measure(const fw::Measurement& m, const char* name) {
  const auto* v = m.find(name);
  if (v == nullptr) throw std::runtime_error(std::string("missing measure ") + name);
  return std::get<double>(*v);
}

fw::Measurement evaluate(const std::vector<std::pair<std::string, fw::Value>>& values) {
  fw::ComponentRegistry registry;
  simverify::components::register_builtin_components(registry);
  fw::Grid grid;
  for (const auto& [name, value] : values) grid.add_group({{fw::Axis{name, {value}, {}}}});
  return registry.find("sensitivity")->evaluate(grid.point(0));
}

}  // namespace

TEST(SensitivityComponent, ExponentialEndValueWithRespectToLambda) {
  // x(tf) = x0 exp(lambda tf): d/dlambda = tf x(tf), elasticity lambda tf.
  const auto m = evaluate({{"model", "exponential"},
                           {"method", "ode45"},
                           {"rtol", 1e-12},
                           {"atol", 1e-14},
                           {"tf", 2.0},
                           {"p.lambda", -0.5},
                           {"reference", "none"},
                           {"wrt", "p.lambda"},
                           {"of", "final(x_end)"}});
  const double x_end = std::exp(-1.0);
  // Central differences at noise 1e-12 reach ~ (1e-12)^(2/3) = 1e-8 relative.
  EXPECT_NEAR(measure(m, "derivative"), 2.0 * x_end, 1e-7);
  EXPECT_NEAR(measure(m, "normalized"), -1.0, 1e-7);
}

TEST(SensitivityComponent, PendulumHitTimeWithRespectToThePin) {
  // At the hit phi = phi_pin, so d t_hit / d phi_pin = -l / v(t_hit) = -0.8008079883 s/rad
  // (scipy DOP853, rtol 1e-13: v at the hit).
  const auto m = evaluate({{"model", "constrained_pendulum"},
                           {"method", "ode45"},
                           {"rtol", 1e-10},
                           {"atol", 1e-12},
                           {"tf", 1.0},
                           {"reference", "none"},
                           {"wrt", "p.phi_pin"},
                           {"of", "final(event_times)"}});
  EXPECT_NEAR(measure(m, "derivative"), -0.8008079883, 1e-5);
  EXPECT_LT(measure(m, "error_estimate"), 1e-5);
}

TEST(SensitivityComponent, InitialStateComponent) {
  // x(tf) = x0 exp(lambda tf) is linear in x0: derivative exp(lambda tf) exactly.
  const auto m = evaluate({{"model", "exponential"},
                           {"method", "ode45"},
                           {"rtol", 1e-12},
                           {"atol", 1e-14},
                           {"tf", 1.0},
                           {"x0", fw::Value::List{3.0}},
                           {"reference", "none"},
                           {"wrt", "x0[0]"},
                           {"of", "final(x_end)"}});
  EXPECT_NEAR(measure(m, "derivative"), std::exp(-1.0), 1e-8);
}
