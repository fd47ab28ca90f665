// Co-simulation through both FMI versions: the FMU integrates itself (classical Runge-Kutta
// inside the test FMUs); its outputs at the communication points against closed forms and the
// built-in models.
#include <simverify/fmu/co_simulation.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include "fmu_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace sim = simverify::simulation;
using namespace simverify::fmu;
using simverify::fmu::testing::test_fmu;

class CoSimulation : public ::testing::TestWithParam<int> {
 protected:
  [[nodiscard]] CoSimulationResult run(const std::string& name,
                                       const CoSimulationSettings& settings) const {
    return run_co_simulation(Fmu::open(test_fmu(GetParam(), name)), settings);
  }
};

namespace {

CoSimulationSettings over(double tf, double h) {
  CoSimulationSettings s;
  s.tf = tf;
  s.step = h;
  return s;
}

}  // namespace

TEST_P(CoSimulation, VanDerPolMatchesTheBuiltInModel) {
  auto s = over(20.0, 0.1);
  s.parameters = {{"mu", 2.0}};
  const auto cs = run("VanDerPol", s);
  ASSERT_EQ(cs.time.size(), 201u);
  EXPECT_EQ(cs.steps, 200);
  EXPECT_FALSE(cs.terminated);
  EXPECT_EQ(cs.time.back(), 20.0);
  // Reference: the built-in model at rtol 1e-12 on the same communication points.
  const auto builtin = sim::make_model("van_der_pol");
  sim::SimulatorSettings reference;
  reference.tf = 20.0;
  reference.stepper.rtol = 1e-12;
  reference.stepper.atol = {1e-12};
  reference.parameters = {{"mu", 2.0}};
  reference.output_times = cs.time;
  const auto exact = sim::Simulator(*builtin, reference).run();
  // RK4 with the FMU's 1e-3 internal step: global error ~ C h^4 with C of order 10 over
  // three cycles at mu = 2, i.e. about 1e-10; 1e-7 leaves margin for the stiffer stretches.
  double worst = 0.0;
  for (std::size_t k = 0; k < cs.time.size(); ++k) {
    worst = std::max(worst, std::abs(cs.values[0][k] - exact.trajectory.states[k][0]));
    worst = std::max(worst, std::abs(cs.values[1][k] - exact.trajectory.states[k][1]));
  }
  EXPECT_LT(worst, 1e-7);
}

TEST_P(CoSimulation, BouncingBallMatchesTheClosedForm) {
  // e = 0.75: bounces accumulate at 0.452 (1 + 2 e / (1 - e)) = 3.16 s, past tf = 3 s.
  auto s = over(3.0, 0.01);
  s.parameters = {{"e", 0.75}};
  const auto cs = run("BouncingBall", s);
  const auto builtin = sim::make_model("bouncing_ball");
  const std::vector<double> p{9.81, 0.75};
  const sim::Context context{p, {}, 0};
  sim::Vector exact;
  // RK4 is exact for free flight (a quadratic); bounces are located to 1e-13 s, so the
  // state is off by about |v| 1e-13 per bounce, amplified near the accumulation point.
  for (std::size_t k = 0; k < cs.time.size(); ++k) {
    builtin->exact_solution(cs.time[k], 0.0, sim::Vector{{1.0, 0.0}}, context, exact);
    ASSERT_NEAR(cs.values[0][k], exact[0], 1e-10) << "h at t = " << cs.time[k];
    ASSERT_NEAR(cs.values[1][k], exact[1], 1e-10) << "v at t = " << cs.time[k];
  }
}

TEST_P(CoSimulation, StairEndsTheRunWhenItSaysSo) {
  const auto full = run("Stair", over(2.0, 0.1));
  EXPECT_NEAR(full.values[0].back(), 0.3 * 15.0 + 6.0 * (2.0 - 1.8), 1e-12);  // x
  EXPECT_EQ(full.values[1].back(), 6.0);                                      // level
  auto s = over(2.0, 0.1);
  s.parameters = {{"steps", 3.0}};
  const auto stopped = run("Stair", s);
  EXPECT_TRUE(stopped.terminated);
  EXPECT_NEAR(stopped.t_end, 0.9, 1e-12);
  EXPECT_NE(stopped.message.find("ended the simulation at t = 0.9"), std::string::npos)
      << stopped.message;
}

TEST_P(CoSimulation, SawtoothCountsItsStepEvents) {
  const auto cs = run("Sawtooth", over(3.5, 0.5));
  EXPECT_NEAR(cs.values[0].back(), 0.5, 1e-9);
  EXPECT_EQ(cs.values[1].back(), 3.0);
}

// Inputs are set at every communication point and held over the step (zero-order hold), so
// x = sum of h u1(t_k) exactly, and the outputs read at t_k see u(t_k).
TEST_P(CoSimulation, FeedthroughHoldsItsInputsOverEachStep) {
  auto s = over(1.0, 0.05);
  s.inputs = {{"u1", sim::ramp_input(0.0, 2.0)}, {"u3", sim::constant_input(-1.0)}};
  const auto cs = run("Feedthrough", s);
  double x = 0.0;
  for (std::size_t k = 0; k < cs.time.size(); ++k) {
    const double t = cs.time[k];
    EXPECT_NEAR(cs.values[0][k], 2.0 * t - 3.0, 1e-12) << t;  // sum (u2 keeps its start 0)
    EXPECT_NEAR(cs.values[2][k], x, 1e-12) << t;
    if (k + 1 < cs.time.size()) x += (cs.time[k + 1] - t) * 2.0 * t;
  }
}

TEST_P(CoSimulation, UsesTheDefaultStepAndNamesMissingOnes) {
  const auto cs = run("BouncingBall", over(0.1, 0.0));  // DefaultExperiment stepSize 0.01
  EXPECT_EQ(cs.steps, 10);
  auto unknown = over(1.0, 0.1);
  unknown.parameters = {{"gravity", 1.0}};
  EXPECT_THROW((void)run("BouncingBall", unknown), FmuError);
}

TEST_P(CoSimulation, AnErrorCarriesTheFunctionAndLog) {
  auto s = over(1.0, 0.1);
  s.parameters = {{"t_error", 0.45}};
  try {
    (void)run("ErrorAt", s);
    FAIL() << "expected an FmuError";
  } catch (const FmuError& e) {
    const std::string what = e.what();
    const std::string status = GetParam() == 2 ? "fmi2DoStep returned fmi2Error at t = 0.4"
                                               : "fmi3DoStep returned fmi3Error at t = 0.4";
    EXPECT_NE(what.find(status), std::string::npos) << what;
    EXPECT_NE(what.find("simulated failure"), std::string::npos) << what;
  }
}

TEST_P(CoSimulation, ACrashTakesDownOnlyItsProcess) {
  // Opened here, not in the death test's child: a crashed process cannot remove the private
  // folder it unpacked into (fmu.hpp), while this one removes it when it ends.
  const auto crash = Fmu::open(test_fmu(GetParam(), "Crash"));
  EXPECT_EXIT((void)run_co_simulation(crash, over(1.0, 0.1)), ::testing::KilledBySignal(SIGSEGV),
              "");
}

INSTANTIATE_TEST_SUITE_P(Fmi, CoSimulation, ::testing::Values(2, 3), [](const auto& param_info) {
  return "fmi" + std::to_string(param_info.param);
});
