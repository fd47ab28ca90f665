// Approval tests: console, results.json and junit.xml for a run that has every outcome
// (pass, failure, error, crash, blocked, aggregated groups, compare), diffed against the
// baselines in testsuites/approval/ after timings are masked. SIMVERIFY_REGENERATE=1 rewrites
// the baselines (review the diff before committing).
#include <simverify/framework/loader.hpp>
#include <simverify/framework/reporters/reporters.hpp>
#include <simverify/framework/runner.hpp>

#include "fake_components.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace simverify::framework;
namespace fs = std::filesystem;

namespace {

const fs::path kBaselines = fs::path(SIMVERIFY_SOURCE_DIR) / "testsuites" / "approval";

const char* kApprovalYaml = R"yaml(requirements:
  - id: APPROVAL-PASS
    title: Squares stay below 4
    level: unit
    component: square
    conditions: {x: [1, 2], k: 1}
    quality: {measure: y, threshold: "<= 4"}
    trace: {source: "lecture notes Def 5.17"}
  - id: APPROVAL-FAIL
    title: Squares stay below 2
    level: unit
    component: square
    conditions: {x: [1, 2]}
    quality: {measure: y, threshold: "<= 2"}
  - id: APPROVAL-BLOCKED
    level: unit
    component: square
    conditions: {x: 1}
    quality: {measure: y, threshold: "<= 2"}
    depends_on: [APPROVAL-FAIL]
  - id: APPROVAL-ERROR
    level: integration
    component: crasher
    conditions: {x: [1, 3, -1]}
    quality: {measure: y, threshold: "<= 10"}
  - id: APPROVAL-ORDER
    level: integration
    component: square
    conditions: {x: {logspace: [-1, 0, 3]}, k: [1, 2]}
    quality: {measure: y, aggregate: {over: [x], statistic: order}, threshold: ">= 1.9"}
  - id: APPROVAL-COMPARE
    level: system
    component: square
    conditions: {x: 2}
    quality: {measure: s, compare: {reference: [0, 1, 2.5], tube: {abs: 0.1}}, threshold: "<= 0"}
)yaml";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string mask(std::string text) {
  static const std::vector<std::pair<std::regex, std::string>> kMasks = {
      {std::regex(R"("seconds": [-0-9.e+]+)"), R"("seconds": "<masked>")"},
      {std::regex(R"("started": "[^"]*")"), R"("started": "<masked>")"},
      {std::regex(R"("commit": (null|"[^"]*"))"), R"("commit": "<masked>")"},
      {std::regex(R"(time="[0-9.]+")"), R"(time="<masked>")"},
      {std::regex(R"(, [0-9]+\.[0-9]+s\))"), ", <t>s)"},
      {std::regex(R"( in [0-9]+\.[0-9]+s)"), " in <t>s"},
  };
  for (const auto& [pattern, replacement] : kMasks) {
    text = std::regex_replace(text, pattern, replacement);
  }
  return text;
}

void approve(const std::string& name, const std::string& actual) {
  const fs::path baseline = kBaselines / name;
  const char* regenerate = std::getenv("SIMVERIFY_REGENERATE");
  if (regenerate != nullptr && std::string(regenerate) == "1") {
    std::ofstream(baseline, std::ios::binary) << actual;
    GTEST_SKIP() << "regenerated " << baseline;
  }
  ASSERT_TRUE(fs::exists(baseline)) << baseline << " is missing; run with SIMVERIFY_REGENERATE=1";
  EXPECT_EQ(actual, slurp(baseline))
      << "differs from " << baseline << " (SIMVERIFY_REGENERATE=1 rewrites it)";
}

class Approval : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const auto registry = fakes::fake_registry();
    LoadResult loaded;
    parse_requirements(kApprovalYaml, "approval.yaml", registry, loaded);
    ASSERT_TRUE(loaded.ok()) << loaded.errors.front().str();
    requirements_ = std::move(loaded.requirements);
    out_ = fs::temp_directory_path() / ("simverify-approval-" + std::to_string(::getpid()));
    fs::remove_all(out_);
    std::ostringstream console_text;
    ListenerList listeners;
    listeners.add(make_console_reporter(console_text, ConsoleOptions{}));
    listeners.add(make_json_reporter(out_));
    listeners.add(make_junit_reporter(out_ / "junit.xml"));
    RunOptions o;
    o.jobs = 2;
    o.fail_fast = FailFast::none;
    Runner(registry, o).run(requirements_, listeners);
    console_ = console_text.str();
  }
  static void TearDownTestSuite() { fs::remove_all(out_); }

  static inline std::vector<Requirement> requirements_;
  static inline fs::path out_;
  static inline std::string console_;
};

TEST_F(Approval, Console) {
  approve("console.txt", mask(console_));
}
TEST_F(Approval, ResultsJson) {
  approve("results.json", mask(slurp(out_ / "results.json")));
}
TEST_F(Approval, JunitXml) {
  approve("junit.xml", mask(slurp(out_ / "junit.xml")));
}
TEST_F(Approval, TimeSeriesStoredBeside) {
  approve("series-APPROVAL-COMPARE-0-s.csv",
          slurp(out_ / "series" / "APPROVAL-COMPARE" / "0-s.csv"));
}

}  // namespace
