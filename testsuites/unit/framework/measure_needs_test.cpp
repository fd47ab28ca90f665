// A component learns before its points run which measures the requirement reads (its
// quality's measure, and the series the report plots for --series quality), in both
// isolations, and skips the rest.
#include <simverify/framework/loader.hpp>
#include <simverify/framework/measure_needs.hpp>
#include <simverify/framework/runner.hpp>

#include <gtest/gtest.h>

#include <set>

using namespace simverify::framework;

namespace {

// Produces x, y and a trajectory, each only when asked for.
Component frugal() {
  Component c;
  c.info = {"frugal", "measures only what is read", {"x"}, {"x", "y", "trajectory"}};
  c.evaluate = [](const Condition&) -> Measurement {
    throw std::logic_error("evaluate_in_context must win");
  };
  c.evaluate_in_context = [](const Condition& condition, const PointContext& context) {
    Measurement m;
    if (context.wants("x")) m.set("x", condition.number("x"));
    if (context.wants("y")) m.set("y", 2.0 * condition.number("x"));
    if (context.wants("trajectory")) m.set("trajectory", TimeSeries{{0.0}, {"x"}, {{1.0}}});
    return m;
  };
  return c;
}

std::vector<Requirement> load_measure(const std::string& measure) {
  ComponentRegistry registry;
  registry.add(frugal());
  LoadResult out;
  parse_requirements(R"(requirements:
  - id: FRUGAL-1
    level: unit
    component: frugal
    conditions:
      x: [1, 2]
    quality: {measure: )" +
                         measure + R"(, threshold: ">= 0"}
)",
                     "t.yaml", registry, out);
  EXPECT_TRUE(out.ok());
  return out.requirements;
}

std::set<std::string> measured(const std::vector<Requirement>& requirements, SeriesOutput series,
                               Isolation isolation) {
  ComponentRegistry registry;
  registry.add(frugal());
  struct Names final : RunListener {
    std::set<std::string> names;
    void point_finished(const Requirement&, const PointResult& p) override {
      for (const auto& [name, m] : p.measures.entries()) names.insert(name);
    }
  };
  RunOptions options;
  options.isolation = isolation;
  options.jobs = 2;
  options.series = series;
  Runner runner(registry, options);
  Names names;
  EXPECT_TRUE(runner.run(requirements, names).releasable);
  return names.names;
}

using Set = std::set<std::string>;

}  // namespace

TEST(MeasureNeeds, FollowTheQualityAndTheSeriesChoice) {
  const auto requirements = load_measure("y");
  const Requirement& r = requirements.front();
  EXPECT_TRUE(MeasureNeeds::of(r, SeriesOutput::all).everything());
  EXPECT_EQ(MeasureNeeds::of(r, SeriesOutput::none).names(), std::vector<std::string>{"y"});
  EXPECT_EQ(MeasureNeeds::of(r, SeriesOutput::quality).names(),
            (std::vector<std::string>{"y", "trajectory"}));
  // A reduction reads the series it reduces; the trajectory is asked for once.
  EXPECT_EQ(
      MeasureNeeds::of(load_measure("rms(trajectory)").front(), SeriesOutput::quality).names(),
      std::vector<std::string>{"trajectory"});
  const MeasureNeeds outputs = MeasureNeeds::only({"y.speed"});
  EXPECT_TRUE(outputs.wants_prefix("y."));
  EXPECT_FALSE(outputs.wants("y.position"));
  EXPECT_TRUE(MeasureNeeds().wants("anything"));
}

TEST(MeasureNeeds, ReachTheComponentInEitherIsolation) {
  const auto requirements = load_measure("y");
  for (const Isolation isolation : {Isolation::process, Isolation::none}) {
    EXPECT_EQ(measured(requirements, SeriesOutput::none, isolation), Set{"y"});
    EXPECT_EQ(measured(requirements, SeriesOutput::quality, isolation), (Set{"y", "trajectory"}));
    EXPECT_EQ(measured(requirements, SeriesOutput::all, isolation), (Set{"x", "y", "trajectory"}));
  }
}
