// A simulate point killed at --timeout says how far it got (simulation_note.hpp): t reached of
// tf, the steps taken, the last step size, and a stiff method when an explicit method's steps
// had collapsed on a stiff model.
#include <simverify/framework/loader.hpp>
#include <simverify/framework/runner.hpp>

#include <gtest/gtest.h>

#include "component_test_support.hpp"
#include "point_note.hpp"      // framework/src: the slot a worker attaches
#include "point_progress.hpp"  // framework/src
#include "simulation_note.hpp"

#include <atomic>
#include <string>

namespace fw = simverify::framework;
using simverify::components::simulation_progress_note;
using simverify::components::SimulationProgress;
using simverify::components::testing::builtin_registry;
using simverify::components::testing::Values;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct Errors final : fw::RunListener {
  std::vector<std::string> errors;
  void point_finished(const fw::Requirement&, const fw::PointResult& p) override {
    errors.push_back(p.error.value_or(""));
  }
};

}  // namespace

TEST(SimulateTimeout, TheNoteSaysHowFarTheRunGot) {
  SimulationProgress p{.method = "ode45",
                       .explicit_adaptive = true,
                       .t0 = 0.0,
                       .tf = 1000.0,
                       .t = 12.5,
                       .steps = 81920,
                       .h = 0.5};
  EXPECT_EQ(simulation_progress_note(p),
            "the simulation had reached t = 12.5 of tf = 1000 (1.25 %) in 81920 steps of ode45, "
            "the last h = 0.5");
  // Steps of 3e-4 over 1e11: collapsed, the stiff hint follows.
  p.tf = 1e11;
  p.h = 3e-4;
  const std::string collapsed = simulation_progress_note(p);
  EXPECT_TRUE(contains(collapsed, "its steps had shrunk to 3e-15 of the horizon")) << collapsed;
  EXPECT_TRUE(contains(collapsed, "ode15s, ode23s, ode23tb or radau2a")) << collapsed;
  // A stiff method or a fixed step (the user's h) gets no such hint.
  p.method = "ode15s";
  p.explicit_adaptive = false;
  EXPECT_FALSE(contains(simulation_progress_note(p), "stiff method"));
}

TEST(SimulateTimeout, ASimulationNotesItsProgressWhenTheRunHasATimeout) {
  // In this process, as a worker would (its note and progress slots attached): the note after
  // the run names the end of the horizon and the run's own step count.
  fw::detail::PointNote note;
  std::atomic<double> progress{0.0};
  fw::detail::attach_point_note(&note);
  fw::detail::attach_point_progress(&progress);
  fw::Grid grid;
  const Values values = {
      {"model", "robertson"}, {"method", "ode45"}, {"tf", 0.01}, {"reference", "none"}};
  for (const auto& [name, value] : values) grid.add_group({{fw::Axis{name, {value}, {}}}});
  const fw::Component& simulate = *builtin_registry().find("simulate");
  const fw::PointContext context{.timeout_seconds = 10.0};
  const fw::Measurement m = simulate.measure(grid.point(0), context);
  fw::detail::attach_point_note(nullptr);
  fw::detail::attach_point_progress(nullptr);
  const std::string text = note.read();
  EXPECT_TRUE(contains(text, "the simulation had reached t = ")) << text;
  EXPECT_TRUE(contains(text, " of tf = 0.01 ")) << text;
  EXPECT_TRUE(contains(text, " steps of ode45, the last h = ")) << text;
  EXPECT_FALSE(contains(text, "stiff method")) << text;  // 0.01 is no horizon to collapse on
}

TEST(SimulateTimeout, AStiffModelOnAnExplicitMethodTimesOutWithTheHint) {
  // Robertson's kinetics on ode45 up to 1e11: stability holds its steps near 1e-3, so the run
  // would take some 1e14 steps and outlives the timeout on any machine; the reason says how
  // far it got and hints at a stiff method.
  fw::LoadResult loaded;
  fw::parse_requirements(R"(requirements:
  - id: STIFF-ON-ODE45
    title: a stiff model on an explicit method
    level: integration
    component: simulate
    conditions:
      model: robertson
      method: ode45
      tf: 1e11
      reference: none
    quality: {measure: steps, threshold: ">= 0"}
)",
                         "stiff.yaml", builtin_registry(), loaded);
  ASSERT_TRUE(loaded.ok()) << loaded.errors.front().str();
  fw::RunOptions options;
  options.jobs = 1;
  options.timeout_seconds = 1.0;
  Errors listener;
  (void)fw::Runner(builtin_registry(), options).run(loaded.requirements, listener);
  ASSERT_EQ(listener.errors.size(), 1u);
  const std::string& error = listener.errors.front();
  EXPECT_TRUE(contains(error,
                       "timed out after 1 s (the worker was killed); the simulation had "
                       "reached t = "))
      << error;
  EXPECT_TRUE(contains(error, " of tf = 1e+11 ")) << error;
  EXPECT_TRUE(contains(error, "a stiff method (method: ode15s, ode23s, ode23tb or radau2a)"))
      << error;
}
