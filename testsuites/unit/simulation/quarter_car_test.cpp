// Quarter-car test bench (lecture Sec 2.4): equations, outputs, exact affine solution.
#include <simverify/simulation/input_signal.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

namespace sim = simverify::simulation;

struct QuarterCarFixture : ::testing::Test {
  std::unique_ptr<sim::Model> model = sim::make_model("quarter_car");
  std::vector<double> p = model->default_parameters();  // m1, m2, s1, d1, s2, d2
};

TEST_F(QuarterCarFixture, DeclaresStatesOutputsAndParametersInOrder) {
  const auto& info = model->info();
  EXPECT_EQ(info.states, (std::vector<std::string>{"y1", "v1", "y2", "v2"}));
  EXPECT_EQ(info.outputs, (std::vector<std::string>{"chassis_acceleration", "suspension_travel",
                                                    "tyre_deflection", "dynamic_tyre_load"}));
  for (const auto* name : {"m1", "m2", "s1", "d1", "s2", "d2"}) {
    EXPECT_NO_THROW((void)model->parameter_index(name)) << name;
  }
  EXPECT_TRUE(info.exact_solution_needs_constant_input);
}

// The two force balances of Sec 2.4, written out independently of the model's code.
TEST_F(QuarterCarFixture, RhsIsTheLectureForceBalance) {
  const double m1 = p[0], m2 = p[1], s1 = p[2], d1 = p[3], s2 = p[4], d2 = p[5];
  const sim::Vector x{{0.02, -0.3, -0.01, 0.5}};
  const sim::InputSample u{0.015, 0.7};
  sim::Vector f;
  model->rhs(0.0, x, {p, u, 0}, f);
  const double y1dd = -(d1 * (x[1] - x[3]) + s1 * (x[0] - x[2])) / m1;
  const double y2dd = -(-d1 * (x[1] - x[3]) - s1 * (x[0] - x[2]) + d2 * (x[3] - u.derivative) +
                        s2 * (x[2] - u.value)) /
                      m2;
  EXPECT_DOUBLE_EQ(f[0], x[1]);
  EXPECT_NEAR(f[1], y1dd, 1e-12 * std::abs(y1dd));
  EXPECT_DOUBLE_EQ(f[2], x[3]);
  EXPECT_NEAR(f[3], y2dd, 1e-12 * std::abs(y2dd));

  sim::Vector y;
  model->output(0.0, x, {p, u, 0}, y);
  EXPECT_NEAR(y[0], y1dd, 1e-12 * std::abs(y1dd));
  EXPECT_DOUBLE_EQ(y[1], x[0] - x[2]);
  EXPECT_DOUBLE_EQ(y[2], x[2] - u.value);
  // Compression positive: the road pushes harder than at rest.
  EXPECT_DOUBLE_EQ(y[3], s2 * (u.value - x[2]) + d2 * (u.derivative - x[3]));
}

// On a level road raised to u, the car rests at y1 = y2 = u (springs at static length).
TEST_F(QuarterCarFixture, RestsOnARaisedLevelRoad) {
  sim::Vector f;
  model->rhs(0.0, sim::Vector{{0.04, 0.0, 0.04, 0.0}}, {p, {0.04, 0.0}, 0}, f);
  EXPECT_LE(f.cwiseAbs().maxCoeff(), 1e-15);
}

// Independent reference: scipy.integrate.solve_ivp(DOP853, rtol=1e-13, atol=1e-15) on the
// Sec 2.4 equations with the default parameters, x0 = (0.05, 0, 0, 0), u = 0.01 constant:
//   x(1) = [0.013466400785305071, -0.037966298931319704, 0.010081970930138308,
//           -0.003947688277860073]
// DOP853 at rtol 1e-13 is accurate to ~1e-12 here, far inside the 1e-10 tolerance.
TEST_F(QuarterCarFixture, ExactSolutionMatchesIndependentReference) {
  sim::Vector x;
  model->exact_solution(1.0, 0.0, sim::Vector{{0.05, 0.0, 0.0, 0.0}}, {p, {0.01, 0.0}, 0}, x);
  const sim::Vector reference{
      {0.013466400785305071, -0.037966298931319704, 0.010081970930138308, -0.003947688277860073}};
  EXPECT_LE((x - reference).cwiseAbs().maxCoeff(), 1e-10) << x.transpose();
  // Long after the transient the car has settled on the raised road.
  model->exact_solution(60.0, 0.0, sim::Vector{{0.05, 0.0, 0.0, 0.0}}, {p, {0.01, 0.0}, 0}, x);
  EXPECT_LE((x - sim::Vector{{0.01, 0.0, 0.01, 0.0}}).cwiseAbs().maxCoeff(), 1e-12);
}

// The simulator with ode4 at h = 1e-4 against the exact (matrix-exponential) solution: the
// global error is C h^4 with C of order omega_max^4 x ~ 74^4 0.05 ~ 1.5e6 times t, so
// about 1.5e-10; 1e-8 is a safe bound that still catches any wrong term in the rhs.
TEST_F(QuarterCarFixture, SimulatorAgreesWithExactSolutionForAStep) {
  sim::SimulatorSettings settings;
  settings.method = "ode4";
  settings.h = 1e-4;
  settings.tf = 2.0;
  settings.input = sim::constant_input(0.02);
  settings.record_trajectory = false;
  const auto result = sim::Simulator(*model, settings).run();
  sim::Vector exact;
  model->exact_solution(2.0, 0.0, model->info().default_x0, {p, {0.02, 0.0}, 0}, exact);
  EXPECT_LE((result.x_end - exact).cwiseAbs().maxCoeff(), 1e-8)
      << result.x_end.transpose() << " vs " << exact.transpose();
}

// Defaults are a realistic passenger car: body mode 1-1.5 Hz, wheel hop 10-15 Hz. The
// eigenvalues of the Jacobian (= A) show both, with the body mode damped 0.2-0.4.
TEST_F(QuarterCarFixture, DefaultsGiveTypicalBodyAndWheelModes) {
  sim::Matrix a;
  model->jacobian(0.0, model->info().default_x0, {p, {}, 0}, a);
  const Eigen::EigenSolver<sim::Matrix> eigen(a);
  std::vector<double> frequencies;
  for (const auto& lambda : eigen.eigenvalues()) {
    if (lambda.imag() > 0.0) {
      frequencies.push_back(std::abs(lambda) / (2.0 * std::numbers::pi));
      const double damping = -lambda.real() / std::abs(lambda);
      if (frequencies.back() < 5.0) {
        EXPECT_GT(damping, 0.2);
        EXPECT_LT(damping, 0.4);
      }
    }
  }
  ASSERT_EQ(frequencies.size(), 2u);
  std::sort(frequencies.begin(), frequencies.end());
  EXPECT_GT(frequencies[0], 1.0);
  EXPECT_LT(frequencies[0], 1.5);
  EXPECT_GT(frequencies[1], 10.0);
  EXPECT_LT(frequencies[1], 15.0);
}
