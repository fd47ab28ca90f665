// The Stepper's counting interface and the free integrate/advance driver (integrate.hpp).
#include <simverify/simulation/integrate.hpp>
#include <simverify/simulation/method_registry.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace sim = simverify::simulation;

namespace {

// Rejects every second attempt and reports a fixed amount of work per attempt, so the counts
// step() keeps can be predicted exactly.
class AlternatingStepper final : public sim::Stepper {
 public:
  [[nodiscard]] sim::StepControl control() const override { return sim::StepControl::adaptive; }
  [[nodiscard]] int order() const override { return 1; }
  void initialize(const sim::OdeSystem&, double, const sim::Vector&,
                  const sim::StepperSettings&) override {}
  void interpolate(double, sim::Vector&) const override {}

 protected:
  sim::StepAttempt do_step(const sim::OdeSystem&, double, const sim::Vector& x, double h,
                           sim::Vector& x_new, sim::StepWork& work) override {
    work.lu_factorizations += 1;
    work.nonlinear_iterations += 3;
    work.jacobian_evaluations += 2;
    x_new = x;
    const bool accept = (++attempts_ % 2) == 0;
    return {.accepted = accept, .error_norm = accept ? 0.5 : 2.0, .next_step = h};
  }

 private:
  int attempts_ = 0;
};

sim::OdeSystem decay() {
  return sim::OdeSystem(1, [](double, const sim::Vector& x, sim::Vector& dx) { dx = -x; });
}

TEST(StepperStatistics, StepCountsOutcomesAndTheWorkTheMethodReports) {
  AlternatingStepper stepper;
  const auto system = decay();
  sim::Vector x{{1.0}};
  sim::Vector x_new(1);
  for (int i = 0; i < 7; ++i) (void)stepper.step(system, 0.0, x, 0.1, x_new);
  const auto& s = stepper.statistics();
  EXPECT_EQ(s.accepted_steps, 3);  // attempts 2, 4, 6
  EXPECT_EQ(s.rejected_steps, 4);
  EXPECT_EQ(s.lu_factorizations, 7);
  EXPECT_EQ(s.nonlinear_iterations, 21);
  EXPECT_EQ(s.jacobian_evaluations, 14);
  // initialize() starts a new segment, not new totals (the Simulator reads them at the end).
  stepper.initialize(system, 0.0, x, {});
  EXPECT_EQ(stepper.statistics().rejected_steps, 4);
}

TEST(Integrate, AdaptiveRunEndsExactlyAtTheEndWithTheExactSolution) {
  auto stepper = sim::make_stepper("ode45");
  sim::StepperSettings settings;
  settings.rtol = 1e-10;
  settings.atol = {1e-12};
  std::vector<double> times;
  const auto end =
      sim::integrate(*stepper, decay(), 0.0, sim::Vector{{1.0}}, 2.0, 0.0, settings,
                     [&](double, double t, const sim::Vector&) { times.push_back(t); });
  EXPECT_EQ(end.t, 2.0);
  EXPECT_EQ(times.back(), 2.0);
  EXPECT_EQ(static_cast<long>(times.size()), stepper->statistics().accepted_steps);
  // Global error of a controlled 5th-order run at rtol 1e-10: a few 1e-10 relative
  // (Hairer-Norsett-Wanner II.4: proportional to the tolerance); 1e-8 leaves room.
  EXPECT_NEAR(end.x(0), std::exp(-2.0), 1e-8 * std::exp(-2.0));
}

TEST(Integrate, FixedStepRunStaysOnTheGridAndReachesTheEnd) {
  auto stepper = sim::make_stepper("ode4");
  std::vector<double> times;
  const auto end =
      sim::integrate(*stepper, decay(), 0.0, sim::Vector{{1.0}}, 1.0, 0.1, {},
                     [&](double, double t, const sim::Vector&) { times.push_back(t); });
  ASSERT_EQ(times.size(), 10U);
  for (std::size_t i = 0; i < times.size(); ++i) {
    EXPECT_EQ(times[i], static_cast<double>(i + 1) * 0.1);  // origin + n h, no accumulated sum
  }
  EXPECT_EQ(end.t, 1.0);
  // RK4's global error at h = 0.1 on x' = -x is about h^4/120 e^-1 ~ 3e-7 (local error
  // h^5/120 per step, 10 steps); 1e-6 bounds it.
  EXPECT_NEAR(end.x(0), std::exp(-1.0), 1e-6);
}

TEST(Integrate, ObserverCanStopTheRun) {
  auto stepper = sim::make_stepper("ode4");
  int calls = 0;
  const auto end = sim::integrate(*stepper, decay(), 0.0, sim::Vector{{1.0}}, 1.0, 0.1, {},
                                  [&](double, double t, const sim::Vector&) {
                                    ++calls;
                                    return t >= 0.3 ? sim::Observed::stop : sim::Observed::proceed;
                                  });
  EXPECT_EQ(calls, 3);
  EXPECT_DOUBLE_EQ(end.t, 0.3);
}

TEST(Integrate, FixedStepMethodWithoutStepIsAnError) {
  auto stepper = sim::make_stepper("ode4");
  EXPECT_THROW((void)sim::integrate(*stepper, decay(), 0.0, sim::Vector{{1.0}}, 1.0, 0.0, {}),
               std::invalid_argument);
}

TEST(Integrate, EndlessRejectionsEndInAnError) {
  AlternatingStepper alternating;  // accepts every second attempt: never 2 rejections in a row
  const auto end = sim::integrate(alternating, decay(), 0.0, sim::Vector{{1.0}}, 1.0, 0.25,
                                  sim::StepperSettings{});
  EXPECT_EQ(end.t, 1.0);
  // A NaN right-hand side is never accepted; the driver (or the stepper's own underflow
  // guard) must end the loop with an error.
  const sim::OdeSystem nan_system(
      1, [](double, const sim::Vector&, sim::Vector& dx) { dx(0) = std::nan(""); });
  auto stepper = sim::make_stepper("ode45");
  EXPECT_THROW((void)sim::integrate(*stepper, nan_system, 0.0, sim::Vector{{1.0}}, 1.0, 0.1, {}),
               std::runtime_error);
}

}  // namespace
