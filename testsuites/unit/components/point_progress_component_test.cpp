// The shipped components report progress inside their point (point_progress.hpp): simulate the
// simulated time over the horizon, monte_carlo its runs, each run's simulation filling its
// share. What the console's bar shows during a long point.
#include <simverify/framework/point_progress.hpp>

#include <gtest/gtest.h>

#include "component_test_support.hpp"
#include "point_progress.hpp"  // framework/src: the slot a worker attaches

#include <atomic>

namespace fw = simverify::framework;
using simverify::components::testing::evaluate;
using simverify::components::testing::Values;

namespace {

const Values kExponential = {
    {"model", "exponential"}, {"method", "ode45"}, {"tf", 2.0}, {"reference", "none"}};

// The slot after evaluating `component` inside the span [from, to] of its point.
double progress_after(const std::string& component, const Values& values, double from, double to) {
  std::atomic<double> slot{-1.0};
  fw::detail::attach_point_progress(&slot);
  {
    const fw::PointProgressSpan span(from, to);
    (void)evaluate(component, values);
  }
  fw::detail::attach_point_progress(nullptr);
  return slot.load();
}

}  // namespace

TEST(PointProgressComponents, SimulateReportsTimeOverTheHorizon) {
  // The last accepted step ends at tf: the whole horizon, the end of the span.
  EXPECT_DOUBLE_EQ(progress_after("simulate", kExponential, 0.0, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(progress_after("simulate", kExponential, 0.25, 0.75), 0.75);
}

TEST(PointProgressComponents, MonteCarloRunsFillTheirShares) {
  Values study = kExponential;
  study.insert(
      study.end(),
      {{"of", "final(x_end)"},
       {"runs", 4.0},
       {"seed", 1.0},
       {"perturb",
        fw::Value::Map{{"p.lambda", fw::Value::Map{{"uniform", fw::Value::List{-1.5, -0.5}}}}}}});
  // The last run's simulation ends its share [3/4, 1] of the span [0, 0.5].
  EXPECT_DOUBLE_EQ(progress_after("monte_carlo", study, 0.0, 0.5), 0.5);
}
