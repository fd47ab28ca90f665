// Components that need more than their conditions (the `command` component): keys of their
// own on the requirement, a check of the whole requirement at load time, and the point's
// context (requirement, index, seed, timeout) when they run, in both isolations.
#include <simverify/framework/loader.hpp>
#include <simverify/framework/runner.hpp>

#include <gtest/gtest.h>

#include <map>

using namespace simverify::framework;

namespace {

// Measures what it was told: its index, seed and timeout, and the length of `program:`.
Component context_echo() {
  Component c;
  c.info = {"echo", "echoes its context", {"x", "seed"}, {"*"}, {"program", "outputs"}};
  c.evaluate = [](const Condition&) -> Measurement {
    throw std::logic_error("evaluate_in_context must win");
  };
  c.evaluate_in_context = [](const Condition& condition, const PointContext& context) {
    Measurement m;
    m.set("index", static_cast<double>(context.index));
    m.set("seed_low", static_cast<double>(context.seed % 1000003));
    m.set("timeout", context.timeout_seconds);
    m.set("x", condition.number("x"));
    m.set("program_args",
          static_cast<double>(context.requirement->field("program")->as_list().size()));
    return m;
  };
  c.check_requirement = [](const Requirement& r) {
    Diagnostics problems;
    const Value* outputs = r.field("outputs");
    if (outputs == nullptr) {
      problems.push_back({r.location, "missing `outputs:`"});
      return problems;
    }
    bool listed = false;
    for (const auto& o : outputs->as_list()) listed = listed || o.as_string() == r.quality.measure;
    if (!listed) {
      problems.push_back({r.quality.measure_location,
                          "measure '" + r.quality.measure + "' is not among `outputs:`"});
    }
    return problems;
  };
  return c;
}

ComponentRegistry context_registry() {
  ComponentRegistry r;
  r.add(context_echo());
  Component plain;
  plain.info = {"plain", "no keys of its own", {"x"}, {"y"}};
  plain.evaluate = [](const Condition&) { return Measurement{}; };
  r.add(plain);
  return r;
}

LoadResult parse_context(const std::string& text) {
  LoadResult out;
  parse_requirements(text, "t.yaml", context_registry(), out);
  return out;
}

const char* kEcho = R"(requirements:
  - id: ECHO-1
    level: unit
    component: echo
    program: [a, b, c]
    outputs: [x, index]
    conditions:
      x: [1, 2, 3]
    quality: {measure: x, threshold: ">= 0"}
)";

}  // namespace

TEST(ComponentKeys, AreKeptAsWrittenWithTheirLocations) {
  const auto out = parse_context(kEcho);
  ASSERT_TRUE(out.ok()) << out.errors.front().str();
  const Requirement& r = out.requirements.front();
  ASSERT_EQ(r.fields.size(), 2u);
  EXPECT_EQ(r.fields[0].first, "program");
  EXPECT_EQ(r.field("program")->as_list().size(), 3u);
  EXPECT_EQ(r.field("program")->key_location().str(), "t.yaml:5:5");
  EXPECT_EQ(r.field("outputs")->location.str(), "t.yaml:6:14");
  EXPECT_EQ(r.quality.measure_location.str(), "t.yaml:9:24");
}

TEST(ComponentKeys, BelongOnlyToTheirComponent) {
  std::string text = kEcho;
  text.replace(text.find("component: echo"), 15, "component: plain");
  const auto out = parse_context(text);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.errors.front().str().substr(0, 36), "t.yaml:5:5: error: unknown key 'prog");
}

TEST(ComponentKeys, TheComponentChecksTheWholeRequirement) {
  std::string text = kEcho;
  text.replace(text.find("[x, index]"), 10, "[index]");
  const auto out = parse_context(text);
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors.front().str(), "t.yaml:9:24: error: measure 'x' is not among `outputs:`");
  EXPECT_TRUE(out.requirements.empty());
}

TEST(PointSeed, IsTheSeedConditionOrDerivedFromIdAndIndex) {
  const auto out = parse_context(kEcho);
  ASSERT_TRUE(out.ok());
  const Requirement& r = out.requirements.front();
  EXPECT_EQ(point_seed(r, 1), point_seed(r, 1));
  EXPECT_NE(point_seed(r, 0), point_seed(r, 1));
  Requirement other = r;
  other.id = "ECHO-2";
  EXPECT_NE(point_seed(other, 0), point_seed(r, 0));

  std::string seeded = kEcho;
  seeded.replace(seeded.find("x: [1, 2, 3]"), 12, "x: [1, 2, 3]\n      seed: [7, 8]");
  const auto with_seed = parse_context(seeded);
  ASSERT_TRUE(with_seed.ok()) << with_seed.errors.front().str();
  EXPECT_EQ(point_seed(with_seed.requirements.front(), 0), 7u);
  EXPECT_EQ(point_seed(with_seed.requirements.front(), 5), 8u);
}

TEST(PointContext, ReachesTheComponentInEitherIsolation) {
  const auto out = parse_context(kEcho);
  ASSERT_TRUE(out.ok());
  const Requirement& r = out.requirements.front();
  const auto reg = context_registry();
  struct Points final : RunListener {
    std::map<std::size_t, Measurement> measured;
    void point_finished(const Requirement&, const PointResult& p) override {
      measured[p.index] = p.measures;
    }
  };
  for (const Isolation isolation : {Isolation::process, Isolation::none}) {
    RunOptions options;
    options.isolation = isolation;
    options.jobs = 2;
    options.timeout_seconds = 42.0;
    Runner runner(reg, options);
    Points points;
    EXPECT_TRUE(runner.run(out.requirements, points).releasable);
    ASSERT_EQ(points.measured.size(), 3u);
    for (const auto& [i, m] : points.measured) {
      EXPECT_EQ(std::get<double>(*m.find("index")), static_cast<double>(i));
      EXPECT_EQ(std::get<double>(*m.find("seed_low")),
                static_cast<double>(point_seed(r, i) % 1000003));
      EXPECT_EQ(std::get<double>(*m.find("timeout")), 42.0);
      EXPECT_EQ(std::get<double>(*m.find("program_args")), 3.0);
    }
  }
}
