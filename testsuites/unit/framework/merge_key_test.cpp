// YAML's merge key `<<` in requirement files (yaml/merge_keys.hpp), as GitLab CI reads it.
#include <simverify/framework/loader.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace simverify::framework;

namespace {

LoadResult parse_with_merges(const std::string& text) {
  ComponentRegistry registry;
  Component c;
  c.info = {"simulate", "test double", {"model", "method", "h", "tf", "p.*"}, {"error_end"}};
  c.evaluate = [](const Condition&) { return Measurement{}; };
  registry.add(c);
  LoadResult out;
  parse_requirements(text, "t.yaml", registry, out);
  return out;
}

std::vector<std::string> axis_names(const Requirement& r) {
  std::vector<std::string> names;
  for (const auto& group : r.conditions.groups()) {
    for (const auto& axis : group.axes) names.push_back(axis.name);
  }
  return names;
}

const char* kShared = R"(requirements:
  - id: A
    level: unit
    component: simulate
    conditions: &common
      model: exponential
      method: ode4
      h: 0.1
    quality: &quality {measure: error_end, threshold: "<= 1e-3"}
)";

}  // namespace

TEST(MergeKey, EntriesJoinWhereTheKeyStoodAndOwnKeysWin) {
  const auto out = parse_with_merges(std::string(kShared) + R"(  - id: B
    level: unit
    component: simulate
    conditions:
      tf: 2
      <<: *common
      h: 0.01
    quality:
      <<: *quality
      threshold: "<= 1e-6"
)");
  ASSERT_TRUE(out.ok()) << out.errors.front().str();
  ASSERT_EQ(out.requirements.size(), 2U);
  const Requirement& b = out.requirements[1];
  EXPECT_EQ(axis_names(b), (std::vector<std::string>{"tf", "model", "method", "h"}));
  EXPECT_EQ(b.conditions.point(0).number("h"), 0.01);
  EXPECT_EQ(b.conditions.point(0).text("model"), "exponential");
  EXPECT_EQ(b.quality.measure, "error_end");
  EXPECT_EQ(b.quality.threshold.bound, 1e-6);
  // The anchored mapping itself is unchanged.
  EXPECT_EQ(out.requirements[0].conditions.point(0).number("h"), 0.1);
  EXPECT_FALSE(out.requirements[0].conditions.find_axis("tf"));
}

TEST(MergeKey, AListMergesInOrderAndSourcesMayMergeThemselves) {
  const auto out = parse_with_merges(std::string(kShared) + R"(  - id: B
    level: unit
    component: simulate
    conditions: &tuned
      <<: [{h: 0.5, p.lambda: -3}, *common]
      tf: 1
    quality: *quality
  - id: C
    level: unit
    component: simulate
    conditions:
      <<: *tuned
    quality: *quality
)");
  ASSERT_TRUE(out.ok()) << out.errors.front().str();
  for (std::size_t i : {1U, 2U}) {
    const Condition point = out.requirements[i].conditions.point(0);
    EXPECT_EQ(point.number("h"), 0.5);  // the earlier mapping of the list wins
    EXPECT_EQ(point.number("p.lambda"), -3.0);
    EXPECT_EQ(point.text("method"), "ode4");
  }
}

TEST(MergeKey, AnythingButMappingsIsAnErrorAtTheValue) {
  for (const char* value : {"5", "[*common, 3]", "[]"}) {
    const auto out = parse_with_merges(std::string(kShared) + R"(  - id: B
    level: unit
    component: simulate
    conditions:
      <<: )" + value + R"(
    quality: *quality
)");
    ASSERT_EQ(out.errors.size(), 1U) << value;
    EXPECT_EQ(out.errors.front().str(),
              "t.yaml:14:11: error: the merge key `<<` takes a mapping (an alias such as *common) "
              "or a list of mappings")
        << value;
  }
}

TEST(MergeKey, ABadMergeKeyDoesNotHideTheFilesOtherErrors) {
  const auto out = parse_with_merges(std::string(kShared) + R"(  - id: B
    level: unit
    component: simulate
    conditions:
      <<: 5
      metod: ode1
    quality: *quality
)");
  ASSERT_EQ(out.errors.size(), 2U);
  EXPECT_EQ(out.errors[0].location.line, 14);
  EXPECT_NE(out.errors[1].message.find("'metod'"), std::string::npos) << out.errors[1].str();
}

TEST(MergeKey, AMappingThatMergesItselfIsAnErrorAtTheKey) {
  const auto out = parse_with_merges(R"(requirements:
  - id: A
    level: unit
    component: simulate
    conditions: &self
      model: exponential
      <<: *self
    quality: {measure: error_end, threshold: "<= 1"}
)");
  ASSERT_EQ(out.errors.size(), 1U);
  EXPECT_EQ(out.errors.front().str(),
            "t.yaml:7:7: error: the merge key `<<` merges a mapping that holds it (an anchor "
            "used inside itself), so the mapping never ends");
}

TEST(MergeKey, AnErrorInAMergedValueIsReportedWhereTheAnchorWroteIt) {
  const auto out = parse_with_merges(std::string(kShared) + R"(  - id: B
    level: unit
    component: simulate
    conditions:
      <<: *common
      metod: ode1
    quality: *quality
)");
  ASSERT_EQ(out.errors.size(), 1U);
  EXPECT_EQ(out.errors.front().location.line, 15);
  EXPECT_NE(out.errors.front().message.find("'metod' (did you mean 'method'?)"), std::string::npos)
      << out.errors.front().str();
}

// Each collection of the text is walked once, however often aliases name it: 40 levels of
// lists (or merging mappings) that each name the previous one twice would be 2^40 visits
// walked naively (the test's timeout would end it). The values then meet the alias limit.
TEST(MergeKey, AliasesOfAliasesAreWalkedOnce) {
  constexpr int kLevels = 40;
  for (const bool merge : {false, true}) {
    std::string pack =
        "requirements:\n  - id: A\n    level: unit\n    component: simulate\n"
        "    conditions:\n      p.chain: [&m0 {x: 1}";
    for (int i = 1; i <= kLevels; ++i) {
      const std::string previous = "*m" + std::to_string(i - 1);
      const std::string twice = "[" + previous + ", " + previous + "]";
      pack +=
          ", &m" + std::to_string(i) +
          (merge ? " {<<: " + twice + ", y" + std::to_string(i) + ": " + twice + "}" : " " + twice);
    }
    pack += "]\n    quality: {measure: error_end, threshold: \"<= 1\"}\n";
    const auto out = parse_with_merges(pack);
    ASSERT_EQ(out.errors.size(), 1U) << merge;
    EXPECT_NE(out.errors.front().message.find("values expand to more than"), std::string::npos)
        << out.errors.front().str();
  }
}
