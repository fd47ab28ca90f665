// `simulate` pays only for what a requirement reads: measures not asked for are not computed
// (no reference solve, no trajectory, no output series), error_* share one reference solve
// per reference problem, and what is computed is what it was before.
#include <simverify/components/components.hpp>
#include <simverify/framework/grid.hpp>
#include <simverify/framework/measure_needs.hpp>
#include <simverify/simulation/model_registry.hpp>

#include <gtest/gtest.h>

#include "component_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace fw = simverify::framework;
namespace sim = simverify::simulation;

namespace {

using simverify::components::testing::measure;
using simverify::components::testing::Values;

// x'' = -x without the closed form declared, so error_* need a reference solve; counts
// every evaluation of f, which is what a reference solve costs.
long f_calls = 0;

class CountedOscillator final : public sim::Model {
 public:
  CountedOscillator() {
    info_.name = "counted_oscillator";
    info_.states = {"x", "v"};
    info_.outputs = {"position", "speed"};
    info_.default_x0 = sim::Vector{{1.0, 0.0}};
    info_.default_tf = 10.0;
  }
  [[nodiscard]] const sim::ModelInfo& info() const override { return info_; }
  void rhs(double /*t*/, const sim::Vector& x, const sim::Context& /*c*/,
           sim::Vector& dxdt) const override {
    ++f_calls;
    dxdt[0] = x[1];
    dxdt[1] = -x[0];
  }
  void output(double /*t*/, const sim::Vector& x, const sim::Context& /*c*/,
              sim::Vector& y) const override {
    y.resize(2);
    y[0] = x[0];
    y[1] = std::abs(x[1]);
  }

 private:
  sim::ModelInfo info_;
};

const bool registered = [] {
  sim::register_model("counted_oscillator",
                      [](const std::string&) { return std::make_unique<CountedOscillator>(); });
  return true;
}();

struct Counted {
  fw::Measurement m;
  long f_calls = 0;  // evaluations of f this point cost, reference solve included
};

Counted simulate(const Values& values, const fw::MeasureNeeds& needs) {
  EXPECT_TRUE(registered);
  fw::Grid grid;
  for (const auto& [name, value] : values) grid.add_group({{fw::Axis{name, {value}, {}}}});
  const long before = f_calls;
  const auto& simulate = *simverify::components::testing::builtin_registry().find("simulate");
  Counted out;
  out.m = simulate.measure(grid.point(0), {.needs = &needs});
  out.f_calls = f_calls - before;
  return out;
}

std::set<std::string> names(const fw::Measurement& m) {
  std::set<std::string> out;
  for (const auto& [name, value] : m.entries()) out.insert(name);
  return out;
}

// The exact solution x = cos t, v = -sin t.
double distance_from_exact(double t, const std::vector<double>& x) {
  return std::max(std::abs(x[0] - std::cos(t)), std::abs(x[1] + std::sin(t)));
}

}  // namespace

TEST(SimulateNeeds, ComputesOnlyTheMeasuresAskedFor) {
  const Values point = {{"model", "counted_oscillator"}, {"rtol", 1e-6}, {"tf", 3.0}};
  const Counted run = simulate(point, fw::MeasureNeeds::only({"x_end", "f_evals"}));
  EXPECT_EQ(names(run.m), (std::set<std::string>{"x_end", "f_evals"}));
  // Every evaluation of f was the run's own: no reference solve for an unread error_end.
  EXPECT_EQ(static_cast<double>(run.f_calls), measure(run.m, "f_evals"));

  const Counted outputs = simulate(point, fw::MeasureNeeds::only({"y.speed"}));
  EXPECT_EQ(names(outputs.m), std::set<std::string>{"y.speed"});

  const Counted everything = simulate(point, fw::MeasureNeeds());
  EXPECT_GT(static_cast<double>(everything.f_calls), measure(everything.m, "f_evals"));
  EXPECT_TRUE(names(everything.m).contains("trajectory"));
  EXPECT_TRUE(names(everything.m).contains("y.position"));
  // Skipping measures leaves the ones computed as they were, bit for bit.
  EXPECT_EQ(std::get<std::vector<double>>(*run.m.find("x_end")),
            std::get<std::vector<double>>(*everything.m.find("x_end")));
  EXPECT_EQ(std::get<fw::TimeSeries>(*outputs.m.find("y.speed")).columns,
            std::get<fw::TimeSeries>(*everything.m.find("y.speed")).columns);
}

TEST(SimulateNeeds, ErrorsAgainstTheSharedReferenceMatchTheExactSolution) {
  const Values point = {
      {"model", "counted_oscillator"}, {"method", "rk4"}, {"h", 0.25}, {"tf", 4.0}};
  const Counted run = simulate(point, fw::MeasureNeeds());
  const auto& x_end = std::get<std::vector<double>>(*run.m.find("x_end"));
  const auto& trajectory = std::get<fw::TimeSeries>(*run.m.find("trajectory"));
  double worst = 0.0;
  for (std::size_t i = 0; i < trajectory.time.size(); ++i) {
    worst = std::max(worst, distance_from_exact(trajectory.time[i], {trajectory.columns[0][i],
                                                                     trajectory.columns[1][i]}));
  }
  // The reference (ode45 at rtol 1e-12, atol 1e-14) is within ~1e-11 of cos t over [0, 4]
  // (global error ~ a few rtol); rk4 at h = 0.25 errs by ~1e-4, so 1e-9 tells them apart.
  EXPECT_NEAR(measure(run.m, "error_end"), distance_from_exact(4.0, x_end), 1e-9);
  EXPECT_NEAR(measure(run.m, "error_max"), worst, 1e-9);
  EXPECT_GT(measure(run.m, "error_max"), 1e-6);
}

TEST(SimulateNeeds, AConvergenceStudySolvesItsReferenceOnce) {
  const fw::MeasureNeeds needs = fw::MeasureNeeds::only({"error_end", "f_evals"});
  std::vector<double> errors;
  for (const double h : {0.1, 0.05, 0.025}) {
    const Counted run = simulate(
        {{"model", "counted_oscillator"}, {"method", "rk4"}, {"h", h}, {"tf", 7.0}}, needs);
    const double own = measure(run.m, "f_evals");
    if (errors.empty()) {
      EXPECT_GT(static_cast<double>(run.f_calls), own);  // the one reference solve
    } else {
      EXPECT_EQ(static_cast<double>(run.f_calls), own);  // reused
    }
    errors.push_back(measure(run.m, "error_end"));
  }
  // Order 4: halving h divides the error by ~16 (asymptotic range at h <= 0.1 on x'' = -x).
  EXPECT_NEAR(errors[0] / errors[1], 16.0, 2.0);
  EXPECT_NEAR(errors[1] / errors[2], 16.0, 2.0);
  // Another problem (another tf) is another reference.
  const Counted other = simulate(
      {{"model", "counted_oscillator"}, {"method", "rk4"}, {"h", 0.1}, {"tf", 6.0}}, needs);
  EXPECT_GT(static_cast<double>(other.f_calls), measure(other.m, "f_evals"));
}
