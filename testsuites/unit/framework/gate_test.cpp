// The releasability gate (Def 5.17) and the test-ready coverage bars (Def 5.20).
#include "gate.hpp"
#include "project_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using simverify::framework::CoverageSummary;
using simverify::framework::evaluate_gate;
using simverify::framework::GateDecision;
using simverify::framework::Level;
using simverify::framework::parse_coverage;
using simverify::framework::parse_project_file;
using simverify::framework::ProjectFile;

namespace {

// A results.json with one requirement per (id, level, status), three grid points each.
std::string gate_results(const std::string& requirements, bool complete = true,
                         const std::string& shard = "null") {
  return R"({"format": "simverify.results/1", "releasable": true, "complete": )" +
         std::string(complete ? "true" : "false") + R"(, "summary": {"shard": )" + shard +
         R"(}, "requirements": [)" + requirements + "]}";
}

std::string gate_requirement(const std::string& id, const std::string& level,
                             const std::string& status, const std::string& points = "") {
  const std::string all_passed =
      R"({"index": 0, "passed": true}, {"index": 1, "passed": true}, {"index": 2, "passed": true})";
  return R"({"id": ")" + id + R"(", "level": ")" + level + R"(", "status": ")" + status +
         R"(", "reason": "worst 0.5 violates >= 1", "grid_size": 3, "points": [)" +
         (points.empty() ? all_passed : points) + "]}";
}

bool mentions(const GateDecision& d, const std::string& text) {
  const auto reasons = d.reasons();
  return std::any_of(reasons.begin(), reasons.end(),
                     [&](const auto& r) { return r.find(text) != std::string::npos; });
}

CoverageSummary coverage(double line, double branch) {
  return parse_coverage(R"({"line": {"covered": )" + std::to_string(line) +
                            R"(, "total": 100}, "branch": {"covered": )" + std::to_string(branch) +
                            R"(, "total": 100}})",
                        "summary.json");
}

}  // namespace

TEST(Gate, AllPassedCompleteRunIsReleasable) {
  const auto d =
      evaluate_gate(gate_results(gate_requirement("A", "unit", "passed")), "r.json", {}, {});
  EXPECT_TRUE(d.releasable);
  EXPECT_TRUE(d.reasons().empty());
}

TEST(Gate, FailedOrSkippedRequirementBlocksRelease) {
  const auto d = evaluate_gate(gate_results(gate_requirement("A", "unit", "failed") + "," +
                                            gate_requirement("B", "integration", "skipped")),
                               "r.json", {}, {});
  EXPECT_FALSE(d.releasable);
  EXPECT_TRUE(mentions(d, "A failed: worst 0.5 violates >= 1"));
  EXPECT_TRUE(mentions(d, "B did not run"));
}

TEST(Gate, IncompleteRunAndShardAreNotReleasable) {
  EXPECT_TRUE(mentions(
      evaluate_gate(gate_results(gate_requirement("A", "unit", "passed"), false), "r.json", {}, {}),
      "incomplete"));
  EXPECT_TRUE(mentions(
      evaluate_gate(gate_results(gate_requirement("A", "unit", "passed"), true, R"("1/2")"),
                    "r.json", {}, {}),
      "shard 1/2"));
}

TEST(Gate, EmptyRunIsNotReleasable) {
  EXPECT_FALSE(evaluate_gate(gate_results(""), "r.json", {}, {}).releasable);
}

TEST(Gate, PassedStatusIsCheckedAgainstEveryPoint) {
  // Def 5.17: every grid point. A "passed" requirement with a failing or missing point is an
  // inconsistent results file and must not pass the gate.
  const auto failing = gate_requirement(
      "A", "unit", "passed",
      R"({"index": 0, "passed": true}, {"index": 1, "passed": false}, {"index": 2, "passed": true})");
  EXPECT_TRUE(mentions(evaluate_gate(gate_results(failing), "r.json", {}, {}), "grid point 1"));
  const auto missing = gate_requirement("A", "unit", "passed", R"({"index": 0, "passed": true})");
  EXPECT_TRUE(
      mentions(evaluate_gate(gate_results(missing), "r.json", {}, {}), "1 of 3 grid points"));
}

TEST(Gate, RequiredLevelsMustHaveRun) {
  ProjectFile project;
  project.levels = {Level::unit, Level::system};
  const auto d =
      evaluate_gate(gate_results(gate_requirement("A", "unit", "passed")), "r.json", project, {});
  EXPECT_FALSE(d.releasable);
  EXPECT_TRUE(mentions(d, "level system"));
  EXPECT_FALSE(mentions(d, "level unit"));
}

TEST(Gate, CoverageBarsAreTestReadiness) {
  ProjectFile project;
  project.coverage.line = 80;
  project.coverage.branch = 50;
  const auto run = gate_results(gate_requirement("A", "unit", "passed"));
  EXPECT_TRUE(evaluate_gate(run, "r.json", project, coverage(80, 50)).releasable);
  const auto low = evaluate_gate(run, "r.json", project, coverage(79.9, 60));
  EXPECT_FALSE(low.releasable);
  EXPECT_TRUE(mentions(low, "line coverage 79.9%"));
  EXPECT_TRUE(mentions(evaluate_gate(run, "r.json", project, {}), "no coverage data"));
}

TEST(Gate, MalformedResultsThrowWithFileName) {
  for (const char* bad : {"{", R"({"format": "other/1", "requirements": []})",
                          R"({"format": "simverify.results/1"})"}) {
    try {
      (void)evaluate_gate(bad, "out/results.json", {}, {});
      ADD_FAILURE() << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("out/results.json"), std::string::npos) << e.what();
    }
  }
}

// JSON is UTF-8: a damaged or tampered byte is an error at its file:line:col, not the JSON
// parser's message quoting the broken bytes back (which would itself be invalid UTF-8). Code
// points XML cannot hold are valid JSON (a component's message may carry them) and are read.
TEST(Gate, InvalidUtf8InResultsIsAnErrorAtItsPlace) {
  const std::string good = gate_results(gate_requirement("A", "unit", "passed"));
  for (const std::string bad : {"\xff", "\xc0\x80", "\xed\xa0\x80", "\xe2\x82"}) {
    std::string text = good;
    text.insert(text.find("\"A\"") + 1, "\n" + bad);  // inside the id, on line 2
    try {
      (void)evaluate_gate(text, "out/results.json", {}, {});
      ADD_FAILURE() << "accepted invalid UTF-8";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("out/results.json:2:1: invalid UTF-8 (byte 0x", 0), 0u)
          << e.what();
    }
  }
  std::string with_fffe = good;
  with_fffe.insert(with_fffe.find("\"A\"") + 1, "\xef\xbf\xbe");  // U+FFFE, valid UTF-8
  EXPECT_TRUE(evaluate_gate(with_fffe, "out/results.json", {}, {}).releasable);
}

// Found by coverage_fuzz_replay: a tampered count must not claim more than 100 %, and a
// number the parser cannot hold is an error naming the file, not std::stod's bare exception.
TEST(Coverage, TamperedCountsAreErrorsNamingTheFile) {
  for (const std::string& bad : std::vector<std::string>{
           R"(<coverage lines-covered="834" lines-valid="1000" branches-covered="410" )"
           R"(branches-valid="0.834">)",
           R"(<coverage lines-covered="..." lines-valid="3">)",
           R"(<coverage lines-covered=")" + std::string(400, '9') + R"(" lines-valid="3">)",
           "LF:1\nLH:5\nend_of_record\n", R"({"line": {"covered": 1e999, "total": 2}})"}) {
    try {
      (void)parse_coverage(bad, "cov.xml");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("cov.xml", 0), 0u) << e.what();
    }
  }
}

TEST(Coverage, ReadsLcovTracefileTotals) {
  const auto s = parse_coverage(
      "TN:\nSF:/src/a.cpp\nDA:1,1\nLF:10\nLH:8\nBRF:4\nBRH:1\nend_of_record\n"
      "SF:/src/b.cpp\nDA:1,0\nDA:2,3\nBRDA:2,0,0,1\nBRDA:2,0,1,-\nend_of_record\n",
      "cov.info");
  ASSERT_TRUE(s.line && s.branch);
  // As lcov reads them: a file's DA lines where it has them (a.cpp's one, not its LF/LH, which
  // lcov derives from them), its totals where it has none (a.cpp's BRF/BRH).
  EXPECT_DOUBLE_EQ(s.line->covered, 2);  // a.cpp's DA line + one of b.cpp's two
  EXPECT_DOUBLE_EQ(s.line->total, 3);
  EXPECT_DOUBLE_EQ(s.branch->covered, 2);
  EXPECT_DOUBLE_EQ(s.branch->total, 6);
}

TEST(Coverage, ReadsCoberturaAndRejectsGarbage) {
  const auto s = parse_coverage(
      R"(<?xml version="1.0"?><coverage line-rate="0.5" lines-covered="5" lines-valid="10" )"
      R"(branches-covered="1" branches-valid="4"/>)",
      "coverage.xml");
  ASSERT_TRUE(s.line && s.branch);
  EXPECT_DOUBLE_EQ(s.line->percent, 50);
  EXPECT_DOUBLE_EQ(s.branch->percent, 25);
  EXPECT_THROW((void)parse_coverage("LF:abc\nend_of_record\n", "x.info"), std::runtime_error);
  EXPECT_THROW((void)parse_coverage(R"({"line": {"covered": 5, "total": 2}})", "s.json"),
               std::runtime_error);
  EXPECT_THROW((void)parse_coverage("", "s.json"), std::runtime_error);
}

TEST(ProjectFile, ParsesLevelsAndBars) {
  const auto r = parse_project_file(
      "gate:\n  levels: [unit, integration]\n  coverage: {line: 80, branch: 50.5}\n",
      "simverify.yaml");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.project.levels, (std::vector<Level>{Level::unit, Level::integration}));
  EXPECT_EQ(r.project.coverage.line, 80);
  EXPECT_EQ(r.project.coverage.branch, 50.5);
}

TEST(ProjectFile, ErrorsNameFileLineAndColumn) {
  const auto r = parse_project_file(
      "gate:\n  levels: [unit, acceptance]\n  coverage: {line: 180, brnch: 5}\n  extra: 1\n",
      "req/simverify.yaml");
  ASSERT_EQ(r.errors.size(), 4U);
  EXPECT_EQ(r.errors[0].str(),
            "req/simverify.yaml:2:18: error: expected a level (unit, integration or system), got "
            "'acceptance'");
  EXPECT_NE(r.errors[1].str().find("req/simverify.yaml:3:"), std::string::npos);
  EXPECT_NE(r.errors[1].str().find("between 0 and 100"), std::string::npos);
  EXPECT_NE(r.errors[2].str().find("did you mean 'branch'"), std::string::npos)
      << r.errors[2].str();
  EXPECT_NE(r.errors[3].str().find("req/simverify.yaml:4:3"), std::string::npos);
  EXPECT_FALSE(parse_project_file("gate: [", "p.yaml").ok());
  EXPECT_FALSE(parse_project_file("levels: [unit]\n", "p.yaml").ok());
}

TEST(ProjectFile, ShippedProjectFileIsValid) {
  const auto r =
      simverify::framework::load_project_file(SIMVERIFY_SOURCE_DIR "/requirements/simverify.yaml");
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors.front().str());
}

// The report shows each requirement as the gate judged it: a recorded pass that a failing
// point contradicts is listed as failed with the reason, the rest as recorded, in file order.
TEST(Gate, DecisionListsEachRequirementAsJudged) {
  const auto d = evaluate_gate(
      gate_results(gate_requirement("A", "unit", "passed") + "," +
                   gate_requirement("B", "unit", "passed",
                                    R"({"index": 0, "passed": true}, {"index": 1, "passed": false},
                             {"index": 2, "passed": true})") +
                   "," + gate_requirement("C", "integration", "failed")),
      "r.json", {}, {});
  ASSERT_EQ(d.requirements.size(), 3U);
  EXPECT_EQ(d.requirements[0].id, "A");
  EXPECT_EQ(d.requirements[0].status, "passed");
  EXPECT_EQ(d.requirements[1].id, "B");
  EXPECT_EQ(d.requirements[1].status, "failed");
  EXPECT_EQ(d.requirements[1].reason, "marked passed but grid point 1 failed its threshold");
  EXPECT_EQ(d.requirements[2].status, "failed");
  EXPECT_EQ(d.requirements[2].reason, "worst 0.5 violates >= 1");
  const std::string json = d.to_json();
  EXPECT_NE(json.find(R"("status": "failed")"), std::string::npos) << json;
}
