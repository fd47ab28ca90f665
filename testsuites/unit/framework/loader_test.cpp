#include <simverify/framework/loader.hpp>

#include <gtest/gtest.h>

#include <cmath>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace simverify::framework;

namespace {

ComponentRegistry fake_registry() {
  ComponentRegistry r;
  Component c;
  c.info = {"simulate",
            "test double",
            {"model", "method", "h", "tf", "x0", "p.*"},
            {"error_end", "steps"}};
  c.evaluate = [](const Condition&) { return Measurement{}; };
  r.add(c);
  return r;
}

LoadResult parse(const std::string& text) {
  LoadResult out;
  const auto registry = fake_registry();
  parse_requirements(text, "t.yaml", registry, out);
  return out;
}

const char* kValid = R"(requirements:
  - id: SOLVER-ODE4-ORDER
    title: order
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: [ode4]
      h: {logspace: [-3, -1, 5]}
      tf: 1.0
      x0: [[1.0]]
      p.lambda: [-1.0, -2.0]
    quality:
      measure: error_end
      aggregate: {over: [h], statistic: order}
      threshold: ">= 3.9"
)";

}  // namespace

TEST(Loader, ReadsTheFormatPageExample) {
  const auto out = parse(kValid);
  ASSERT_TRUE(out.ok()) << out.errors.front().str();
  ASSERT_EQ(out.requirements.size(), 1u);
  const auto& r = out.requirements.front();
  EXPECT_EQ(r.conditions.size(), 10u);  // 1 * 1 * 5 * 1 * 1 * 2
  EXPECT_NEAR(r.conditions.point(0).number("h"), 1e-3, 1e-18);
  EXPECT_EQ(r.conditions.point(0).at("x0").as_numbers(), std::vector<double>{1.0});
  EXPECT_EQ(r.location.line, 2);
}

TEST(Loader, UnknownKeySuggestsTheClosestOne) {
  std::string text = kValid;
  text.replace(text.find("title:"), 6, "titel:");
  const auto out = parse(text);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.errors.front().location.line, 3);
  EXPECT_EQ(out.errors.front().location.column, 5);
  EXPECT_NE(out.errors.front().message.find("did you mean 'title'"), std::string::npos)
      << out.errors.front().message;
}

TEST(Loader, UnknownComponentListsKnownOnes) {
  std::string text = kValid;
  text.replace(text.find("component: simulate"), 19, "component: simulat");
  const auto out = parse(text);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.errors.front().message.find("known: simulate"), std::string::npos);
}

TEST(Loader, BadThresholdNamesWhatWasExpected) {
  std::string text = kValid;
  text.replace(text.find("\">= 3.9\""), 8, "\"> 3.9\"");
  const auto out = parse(text);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.errors.front().location.line, 16);
  EXPECT_NE(out.errors.front().message.find(">= Q_min"), std::string::npos);
}

TEST(Loader, YamlSyntaxErrorHasALocation) {
  const auto out = parse("requirements:\n  - id: [unclosed\n");
  ASSERT_FALSE(out.ok());
  EXPECT_GT(out.errors.front().location.line, 0);
  EXPECT_NE(out.errors.front().message.find("YAML syntax"), std::string::npos);
}

// The condition check sees whole grid points, once per distinct combination of the axes it
// reads: kValid's grid has 1 x 1 x 5 x 1 x 1 x 2 = 10 points but only the two p.lambda
// values matter to a check that reads p.*, so it runs twice; the first failing point is
// reported with the values it read, at `conditions:` since no single axis is to blame (the
// third call: the point without p.lambda, which throws).
TEST(Loader, ConditionCheckRunsOncePerCombinationOfTheAxesItReads) {
  auto registry = fake_registry();
  Component c = *registry.find("simulate");
  int calls = 0;
  c.check_condition = ConditionCheck{{"p.*"}, [&calls](const Condition& point) {
                                       ++calls;
                                       return point.number("p.lambda") < -1.5
                                                  ? std::optional<std::string>("too stiff")
                                                  : std::nullopt;
                                     }};
  registry.add(c);
  LoadResult out;
  parse_requirements(kValid, "t.yaml", registry, out);
  EXPECT_EQ(calls, 3);
  ASSERT_EQ(out.errors.size(), 1U);
  EXPECT_EQ(out.errors.front().location.line, 7);
  EXPECT_EQ(out.errors.front().message, "conditions (p.lambda: -2): too stiff");
}

TEST(Loader, ConditionCheckThatThrowsIsAnErrorNotACrash) {
  auto registry = fake_registry();
  Component c = *registry.find("simulate");
  c.check_condition = ConditionCheck{{"model"}, [](const Condition& point) {
                                       return std::optional<std::string>(point.text("no_such"));
                                     }};
  registry.add(c);
  LoadResult out;
  parse_requirements(kValid, "t.yaml", registry, out);
  ASSERT_EQ(out.errors.size(), 1U);
  EXPECT_NE(out.errors.front().message.find("no_such"), std::string::npos);
}

// A mapping is a generator only as {name: args} (plus seed: for the random ones): scenarios
// whose first is named like a generator stay one structured value, while a near miss of
// seed: still reads as a mistaken generator call.
TEST(Loader, AMappingWithOtherKeysThanSeedIsAValueNotAGenerator) {
  auto registry = fake_registry();
  Component c = *registry.find("simulate");
  c.info.axes.push_back("scenarios");
  registry.add(c);
  std::string text = kValid;
  text.replace(text.find("      tf: 1.0"), 13,
               "      tf: 1.0\n      scenarios: {normal: {p.lambda: -1}, worn: {p.lambda: -3}}");
  LoadResult out;
  parse_requirements(text, "t.yaml", registry, out);
  ASSERT_TRUE(out.ok()) << out.errors.front().str();
  const Axis* scenarios = out.requirements.front().conditions.find_axis("scenarios");
  ASSERT_NE(scenarios, nullptr);
  ASSERT_EQ(scenarios->values.size(), 1U);
  EXPECT_EQ(scenarios->values.front().as_map().size(), 2U);

  text = kValid;
  text.replace(text.find("{logspace: [-3, -1, 5]}"), 23, "{uniform: [0.01, 0.1, 5], sed: 1}");
  LoadResult typo;
  parse_requirements(text, "t.yaml", registry, typo);
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.errors.front().message.find("unexpected key 'sed' in uniform generator"),
            std::string::npos);
  // At the key itself, not at the generator's opening brace.
  const std::size_t sed = text.find("sed: 1");
  const std::size_t line_start = text.rfind('\n', sed) + 1;
  EXPECT_EQ(typo.errors.front().location.column, static_cast<int>(sed - line_start) + 1);
}

// Input that nests or repeats without bound must cost memory, not the call stack: these
// crashed with SIGSEGV when the id check and the cycle search recursed per character and per
// dependency.
TEST(Loader, AFiftyThousandCharacterIdIsCheckedWithoutRecursion) {
  const std::string id(50'000, 'A');
  std::string text = kValid;
  text.replace(text.find("SOLVER-ODE4-ORDER"), 17, id);
  auto out = parse(text);
  ASSERT_EQ(out.errors.size(), 1u);  // read through, then refused for its length
  EXPECT_NE(out.errors.front().message.find("id is 50000 characters long; at most 200"),
            std::string::npos)
      << out.errors.front().message;

  text.replace(text.find(id), 1, "a");
  out = parse(text);
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_NE(out.errors.front().message.find("must match [A-Z0-9._-]+"), std::string::npos);
}

// Only aliases can make a file's values outnumber its bytes: a large file written out in full
// (5,000 requirements of five conditions, an explicit grid of 150,000 values) loads, while
// aliases of aliases are refused beyond 100,000 values more (malformed.yaml_alias_expansion).
TEST(Loader, ALargeFileWrittenOutInFullIsNoAliasBomb) {
  std::string pack = "requirements:\n";
  for (int i = 0; i < 5'000; ++i) {
    pack += "  - {id: R" + std::to_string(i) +
            ", level: unit, component: simulate, conditions: {model: exponential, method: ode1, "
            "h: 0.1, tf: 1.0, x0: [1.0]}, quality: {measure: steps, threshold: \"<= 1\"}}\n";
  }
  pack += "  - {id: GRID, level: unit, component: simulate, conditions: {h: [";
  for (int i = 1; i <= 150'000; ++i) {
    if (i > 1) pack += ',';
    pack += std::to_string(i);
  }
  pack += "]}, quality: {measure: steps, threshold: \"<= 1\"}}\n";
  const auto out = parse(pack);
  ASSERT_TRUE(out.errors.empty()) << out.errors.front().str();
  ASSERT_EQ(out.requirements.size(), 5'001u);
  EXPECT_EQ(out.requirements.back().conditions.size(), 150'000u);
}

TEST(Loader, AFiftyThousandLongDependencyChainIsCheckedWithoutRecursion) {
  // Under ci/coverage (SIMVERIFY_UNDER_COVERAGE=1) a chain of 2,000: the same lines and branches
  // run, in a second instead of a minute of instrumented YAML parsing. Only a chain this long
  // shows that no recursion overflows the stack; ci/test runs it.
  const char* under_coverage = std::getenv("SIMVERIFY_UNDER_COVERAGE");
  const int kLength = under_coverage && std::string(under_coverage) == "1" ? 2'000 : 50'000;
  const auto dir = std::filesystem::path(::testing::TempDir()) / "simverify_chain_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    std::ofstream file(dir / "chain.yaml");
    file << "requirements:\n";
    for (int i = 0; i < kLength; ++i) {
      // R0 -> R1 -> ... -> R49999 -> R0
      file << "  - {id: R" << i << ", level: unit, component: simulate, conditions: {}, "
           << "quality: {measure: steps, threshold: \"<= 1\"}, depends_on: [R" << (i + 1) % kLength
           << "]}\n";
    }
  }
  const auto loaded = load_requirements({dir}, fake_registry());
  std::filesystem::remove_all(dir);
  ASSERT_EQ(loaded.errors.size(), 1u) << loaded.errors.front().str();
  EXPECT_EQ(loaded.errors.front().message.rfind("dependency cycle: R0 -> R1 -> R2 -> ", 0), 0u)
      << loaded.errors.front().message.substr(0, 80);
  const std::string last = "R" + std::to_string(kLength - 1) + " -> R0";
  EXPECT_NE(loaded.errors.front().message.find(last), std::string::npos) << last;
}

// yaml-cpp does not consume a `,` outside brackets: it reads an empty document there and,
// asked for the next one, another at the same `,` without end (the fuzz replay found it; the
// errors filled memory). One error, wherever the `,` follows the first value. (`]` and `}`
// there are errors of yaml-cpp's scanner already.)
TEST(Loader, ACommaThatBeginsNoValueIsOneErrorNotEndlessDocuments) {
  for (const std::string before : {"", "[1]\n", "\"text\"\n", "text\n...\n"}) {
    const auto out = parse(before + ", x\n" + kValid);
    ASSERT_EQ(out.errors.size(), 1u) << before;
    EXPECT_EQ(out.errors.front().message, "YAML syntax: unexpected ',': it begins no value here");
    EXPECT_EQ(out.errors.front().location.line,
              1 + static_cast<int>(std::count(before.begin(), before.end(), '\n')));
    EXPECT_EQ(out.errors.front().location.column, 1);
    EXPECT_TRUE(out.requirements.empty());
  }
}

// A link to a folder is an error at its path, not followed and not skipped: followed, a link
// to /proc or to a folder above led the load through the whole disk (gigabytes); skipped, the
// packs behind it were left out without a word. A `.yaml` that is a loop of links is an error
// at its path too (it ended the load with a filesystem exception and no location); a loop of
// links by any other name is no requirement file and is passed over. The other files load.
TEST(Loader, LinksToFoldersAndLinkLoopsAreErrorsAtTheirPath) {
  namespace fs = std::filesystem;
  const auto root = fs::path(::testing::TempDir()) / "simverify_linked_folders_test";
  fs::remove_all(root);
  const auto pack = [](const fs::path& file, const std::string& id) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << "requirements:\n  - {id: " << id
                        << ", level: unit, component: simulate, conditions: {}, quality: "
                           "{measure: steps, threshold: \"<= 1\"}}\n";
  };
  pack(root / "requirements" / "unit" / "a.yaml", "A");
  pack(root / "elsewhere" / "b.yaml", "B");
  fs::create_symlink("loop2", root / "requirements" / "loop1");
  fs::create_symlink("loop1", root / "requirements" / "loop2");
  const auto plain = load_requirements({root / "requirements"}, fake_registry());
  ASSERT_TRUE(plain.ok()) << plain.errors.front().str();
  ASSERT_EQ(plain.requirements.size(), 1u);
  EXPECT_EQ(plain.requirements.front().id, "A");

  fs::create_directory_symlink(root / "elsewhere", root / "requirements" / "linked");
  fs::create_directory_symlink("/proc", root / "requirements" / "unit" / "proc");
  fs::create_symlink("self.yaml", root / "requirements" / "self.yaml");
  const auto linked = load_requirements({root / "requirements"}, fake_registry());
  std::vector<std::string> errors;
  for (const auto& e : linked.errors) errors.push_back(e.str());
  std::sort(errors.begin(), errors.end());
  const std::string at = (root / "requirements").string();
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0],
            at + "/linked: error: is a symbolic link to a folder (" +
                (root / "elsewhere").string() +
                "), which is not followed: name that folder on the command line instead");
  EXPECT_NE(errors[1].find(at + "/self.yaml"), std::string::npos) << errors[1];
  EXPECT_NE(errors[1].find("a loop of symbolic links"), std::string::npos) << errors[1];
  EXPECT_EQ(errors[2], at + "/unit/proc: error: is a symbolic link to a folder (/proc), which is "
                            "not followed: name that folder on the command line instead");
  fs::remove_all(root);
}

TEST(Loader, PlainNanAndInfAreTextAsInYaml12) {
  // YAML 1.2's core schema reads only .nan and .inf as numbers; `nan`, `inf` and `Infinity`
  // are text (std::from_chars reads them as numbers, and a `command` program got null).
  std::string text = kValid;
  text.replace(text.find("method: [ode4]"), 14, "method: [nan, inf, Infinity, -inf]");
  text.replace(text.find("p.lambda: [-1.0, -2.0]"), 22, "p.lambda: [.nan, -.inf]");
  const auto out = parse(text);
  ASSERT_TRUE(out.ok()) << out.errors.front().str();
  const auto& conditions = out.requirements.front().conditions;
  // Points vary the last axis fastest: p.lambda, then h (5 values), then method.
  for (std::size_t m = 0; m < 4; ++m) {
    EXPECT_TRUE(conditions.point(m * 10).at("method").is_string()) << m;
  }
  EXPECT_TRUE(std::isnan(conditions.point(0).number("p.lambda")));
  EXPECT_EQ(conditions.point(1).number("p.lambda"), -HUGE_VAL);
}

TEST(Loader, HiddenTopLevelKeysHoldAnchorsAndAnErrorInThemIsReportedOnce) {
  // GitLab CI's pattern: settings under a hidden `.name:` key, merged where needed. A wrong
  // value there is one mistake, reported once where the anchor wrote it, however many
  // requirements merge it.
  const auto out = parse(R"(.shared: &shared
  model: exponential
  method: ode4
  h: {linspace: [0.1]}
requirements:
  - id: A
    level: unit
    component: simulate
    conditions: {<<: *shared, tf: 1.0}
    quality: {measure: error_end, threshold: "<= 1"}
  - id: B
    level: unit
    component: simulate
    conditions: {<<: *shared, tf: 2.0}
    quality: {measure: error_end, threshold: "<= 1"}
)");
  ASSERT_EQ(out.errors.size(), 1u) << out.errors.front().str();
  EXPECT_EQ(out.errors.front().location.line, 4);
  EXPECT_NE(out.errors.front().message.find("linspace"), std::string::npos)
      << out.errors.front().message;
  EXPECT_TRUE(out.requirements.empty());  // neither requirement is taken as valid
}
