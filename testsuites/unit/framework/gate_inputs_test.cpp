// What the release gate does with inputs it must not trust: malformed results, coverage and
// project files are bad input with a message naming file (and line and column where there is
// one); inconsistent results and missing coverage figures are reasons not to release.
#include "gate.hpp"
#include "project_file.hpp"
#include "recorded_run.hpp"
#include "runtime_error_of.hpp"
#include "test_folder.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fw = simverify::framework;
namespace fs = std::filesystem;

namespace {

std::string results_with(const std::string& requirements) {
  return R"({"format": "simverify.results/1", "complete": true, "requirements": [)" + requirements +
         "]}";
}

bool has_reason(const fw::GateDecision& d, const std::string& text) {
  const auto reasons = d.reasons();
  return std::any_of(reasons.begin(), reasons.end(),
                     [&](const auto& r) { return r.find(text) != std::string::npos; });
}

fw::GateDecision gate(const std::string& requirements, const fw::ProjectFile& project = {},
                      const std::optional<fw::CoverageSummary>& coverage = {}) {
  return fw::evaluate_gate(results_with(requirements), "out/results.json", project, coverage);
}

std::string first_gate_error(const std::string& yaml) {
  const auto r = fw::parse_project_file(yaml, "p.yaml");
  return r.errors.empty() ? std::string("(no error)") : r.errors.front().str();
}

// A fresh folder for one test (test_folder.hpp).
struct TempDir : fw::fakes::TestFolder {
  TempDir() : TestFolder("simverify-gate-test") {}
};

// `simverify run` of the fakes' pack into `dir` (recorded_run.hpp), recording `project_file`.
void run_pack(const TempDir& dir, const std::string& project_file = {}) {
  dir.write("pack.yaml", fw::fakes::kRecordedPack);
  fw::RunOptions options;
  options.project_file = project_file;
  fw::fakes::record_run(dir.path / "pack.yaml", dir.path, options);
}

fw::GateDecision decide(const TempDir& dir, const fw::GateInputs& inputs) {
  return fw::decide_gate(dir.path, inputs, fw::fakes::fake_registry());
}

// The fakes' pack run from the folder dir/req into dir/out, recording the gate settings beside
// it (req/simverify.yaml, returned), which require the system level the pack lacks;
// dir/lenient.yaml requires only unit, for an edit to name instead.
std::string record_run_under_strict_settings(const TempDir& dir) {
  fs::create_directories(dir.path / "req");
  dir.write("req/pack.yaml", fw::fakes::kRecordedPack);
  dir.write("req/simverify.yaml", "gate:\n  levels: [system]\n");
  dir.write("lenient.yaml", "gate:\n  levels: [unit]\n");
  fw::RunOptions options;
  options.project_file = (dir.path / "req" / "simverify.yaml").string();
  fw::fakes::record_run(dir.path / "req", dir.path / "out", options);
  return options.project_file;
}

// The edits of dir/out/results.json's recorded settings a test tries: none, the lenient file.
std::vector<nlohmann::json> project_file_edits(const TempDir& dir) {
  return {nlohmann::json(nullptr), nlohmann::json((dir.path / "lenient.yaml").string())};
}

void record_project_file(const TempDir& dir, const nlohmann::json& project_file) {
  const fs::path results = dir.path / "out" / "results.json";
  auto doc = nlohmann::ordered_json::parse(std::ifstream(results));
  doc["plan"]["project_file"] = project_file;
  std::ofstream(results) << doc.dump(1);
}

}  // namespace

TEST(GateInputs, JsonSyntaxErrorsNameLineAndColumn) {
  const auto message = fw::fakes::runtime_error_of([] {
    (void)fw::evaluate_gate("{\"format\": \"simverify.results/1\",\n  \"requirements\": [}",
                            "out/results.json", {}, {});
  });
  // The '}' is the 20th character of line 2.
  EXPECT_EQ(message.rfind("out/results.json:2:20: not valid JSON: ", 0), 0U) << message;
  EXPECT_NE(message.find("unexpected '}'"), std::string::npos) << message;
  EXPECT_EQ(fw::fakes::runtime_error_of([] {
              (void)fw::parse_coverage("{\"line\": }", "s.json");
            }).rfind("s.json:1:10: not valid JSON", 0),
            0U);
}

TEST(GateInputs, RepeatedKeysAreRefusedNamingTheirPlace) {
  // A JSON parser keeps the last of two equal keys: a "passed" or "status" appended after the
  // one the run wrote would win. Refused like any malformed file (exit 2), at the repetition.
  EXPECT_EQ(fw::fakes::runtime_error_of([] {
              (void)gate(R"({"id": "A", "status": "failed",
  "status": "passed"})");
            }),
            "out/results.json:2:3: duplicate key 'status'");
  EXPECT_EQ(
      fw::fakes::runtime_error_of([] {
        (void)gate(
            R"({"id": "A", "status": "passed", "points": [{"index": 0, "passed": false, "passed": true}]})");
      }),
      "out/results.json:1:143: duplicate key 'passed'");
  // Spelled differently, the same key; a control character in it is shown, not obeyed.
  EXPECT_EQ(fw::fakes::runtime_error_of([] { (void)gate(R"({"id": "A", "\u0069d": "B"})"); }),
            "out/results.json:1:82: duplicate key 'id'");
  EXPECT_EQ(fw::fakes::runtime_error_of(
                [] { (void)gate(R"({"id": "A", "\u001b[2J": 1, "\u001b[2J": 2})"); }),
            "out/results.json:1:98: duplicate key '\\u001b[2J'");
  // A key repeated in one object, not keys equal in different objects; at the top level too.
  EXPECT_NO_THROW((void)gate(R"({"id": "A", "status": "passed", "trace": {"id": "x"}})"));
  EXPECT_EQ(fw::fakes::runtime_error_of([] {
              (void)fw::evaluate_gate(R"({"format": "simverify.results/1", "requirements": [],
"releasable": false, "releasable": true})",
                                      "out/results.json", {}, {});
            }),
            "out/results.json:2:22: duplicate key 'releasable'");
  // An object of many keys is checked as well as a small one.
  std::string many = R"({"id": "A", "trace": {)";
  for (int k = 0; k < 40; ++k) many += fmt::format("\"k{}\": 1, ", k);
  many += R"("k7": 2}})";
  EXPECT_NE(fw::fakes::runtime_error_of([&] { (void)gate(many); }).find(": duplicate key 'k7'"),
            std::string::npos);
  EXPECT_EQ(fw::fakes::runtime_error_of([] {
              (void)fw::parse_coverage(R"({"line": {"found": 2, "found": 3}})", "s.json");
            }),
            "s.json:1:23: duplicate key 'found'");
}

TEST(GateInputs, MalformedRequirementsAreBadInputNamingThePosition) {
  EXPECT_EQ(fw::fakes::runtime_error_of([] { (void)gate("1"); }),
            "out/results.json: requirements[0]: expected an object, found number");
  EXPECT_NE(fw::fakes::runtime_error_of([] {
              (void)gate(R"({"id": 7, "status": "passed"})");
            }).find("out/results.json: requirements[0].id: expected a string, found number"),
            std::string::npos);
  EXPECT_EQ(fw::fakes::runtime_error_of([] {
              (void)gate(R"({"id": "A", "status": "passed"}, {"id": "B", "status": "done"})");
            }),
            "out/results.json: requirements[1]: unknown status 'done' of B (expected passed, "
            "failed, error or skipped)");
  EXPECT_NE(fw::fakes::runtime_error_of([] {
              (void)gate(R"({"id": "A", "status": "passed", "grid_size": "3", "points": []})");
            }).find("requirements[0].grid_size: expected a non-negative integer, found string"),
            std::string::npos);
  EXPECT_NE(fw::fakes::runtime_error_of([] {
              (void)gate(R"({"id": "A", "status": "passed", "grid_size": 1, "points": [3]})");
            }).find("requirements[0].points[0]: expected an object, found number"),
            std::string::npos);
}

TEST(GateInputs, InconsistentPassedRequirementsAreReasons) {
  // Each is a results file that says "passed" where Def 5.17 does not hold.
  // A wrong type is bad input naming the key (results_file.cpp), not a reason.
  EXPECT_NE(fw::fakes::runtime_error_of([] {
              (void)gate(R"({"id": "A", "status": "passed", "points": {}})");
            }).find("requirements[0].points: expected a list, found object"),
            std::string::npos);
  const auto group = [](const std::string& groups) {
    return R"({"id": "G", "status": "passed", "aggregate": {"over": ["h"], "statistic": "order"},
               "grid_size": 2, "points": [{"index": 0, "passed": true}, {"index": 1, "passed": true}],
               "groups": )" +
           groups + "}";
  };
  EXPECT_TRUE(has_reason(gate(group(R"([{"points": [0], "passed": true},
                                        {"points": [1], "passed": false}])")),
                         "G is marked passed but group 1 failed its threshold"));
  EXPECT_TRUE(has_reason(gate(group("[]")), "G is marked passed but no group was evaluated"));
  EXPECT_TRUE(gate(group(R"([{"points": [0, 1], "passed": true}])")).releasable);
  const auto twice = gate(R"({"id": "A", "status": "passed"}, {"id": "A", "status": "passed"})");
  EXPECT_FALSE(twice.releasable);
  EXPECT_TRUE(has_reason(twice, "A appears more than once in the results"));
}

TEST(GateInputs, FailedAndErrorRequirementsGiveTheirReason) {
  const auto d = gate(R"({"id": "E", "level": "unit", "status": "error", "reason": "NaN at 3"},
                         {"id": "F", "level": "unit", "status": "failed"})");
  EXPECT_TRUE(has_reason(d, "E error: NaN at 3"));
  EXPECT_TRUE(has_reason(d, "F failed"));
  EXPECT_TRUE(has_reason(d, "0 of 2 planned requirement(s) passed"));
  EXPECT_TRUE(has_reason(gate(""), "no requirement was run"));
}

TEST(GateInputs, CoverageChecksSayWhatIsMissing) {
  fw::ProjectFile bars;
  bars.coverage.line = 80;
  bars.coverage.branch = 50;
  const std::string passed = R"({"id": "A", "status": "passed"})";
  const auto line_only = fw::parse_coverage(R"({"line": {"covered": 9, "total": 10}})", "s.json");
  const auto d = gate(passed, bars, line_only);
  EXPECT_TRUE(has_reason(d, "the branch coverage bar is 50.0% but s.json has no branch figures"));
  EXPECT_FALSE(has_reason(d, "line coverage"));
  const auto nothing =
      fw::parse_coverage(R"({"line": {"covered": 0, "total": 0}, "branch": {"percent": 0}})", "z");
  EXPECT_TRUE(has_reason(gate(passed, bars, nothing), "line coverage: no line was instrumented"));
  // A percentage alone is accepted and shown as such; without a bar the figure is reported.
  const auto percent = fw::parse_coverage(R"({"line": {"percent": 81.5}})", "p.json");
  EXPECT_FALSE(percent.branch.has_value());
  fw::ProjectFile line_bar;
  line_bar.coverage.line = 80;
  const auto ok = gate(passed, line_bar, percent);
  EXPECT_TRUE(ok.releasable);
  EXPECT_EQ(ok.checks.back().text, "line coverage 81.5% meets the bar 80.0%");
  const auto no_bar = gate(passed, {}, line_only);
  EXPECT_TRUE(no_bar.releasable);
  EXPECT_EQ(no_bar.checks.back().text, "line coverage 90.0% (9 of 10) (no bar set)");
}

TEST(GateInputs, ACoverageBelowTheBarNeverReadsAsTheBar) {
  fw::ProjectFile bars;
  bars.coverage.line = 80;
  bars.coverage.branch = 50.25;
  const std::string passed = R"({"id": "A", "status": "passed"})";
  const auto near = fw::parse_coverage(
      R"({"line": {"covered": 79996, "total": 100000}, "branch": {"covered": 5024, "total": 10000}})",
      "s.json");
  const auto d = gate(passed, bars, near);
  EXPECT_TRUE(has_reason(d,
                         "line coverage 79.996% (79996 of 100000) is below the test-ready bar "
                         "80.0%"))
      << d.to_json();
  EXPECT_TRUE(has_reason(d,
                         "branch coverage 50.2% (5024 of 10000) is below the test-ready bar "
                         "50.25%"))
      << d.to_json();
  // gate.json carries the same text for the report.
  const auto doc = nlohmann::json::parse(d.to_json());
  EXPECT_EQ(doc["coverage"]["line"]["text"], "79.996%");
  EXPECT_EQ(doc["coverage"]["branch"]["text"], "50.2%");
  // A figure that meets its bar never reads as below it; far from a bar, one decimal.
  EXPECT_EQ(fw::shown_percent(80.04, 80.04), "80.04%");
  EXPECT_EQ(fw::shown_percent(83.4459, 80), "83.4%");
  EXPECT_EQ(fw::shown_percent(79.95, 80), "79.95%");
  EXPECT_EQ(fw::shown_percent(79.96, std::nullopt), "80.0%");
  EXPECT_EQ(fw::shown_percent(80 - 1e-7, 80), "79.9999999%");
}

TEST(GateInputs, DecisionAsJson) {
  fw::ProjectFile project;
  project.file = "requirements/simverify.yaml";
  project.coverage.line = 95;
  const auto cov = fw::parse_coverage(R"({"line": {"covered": 9, "total": 10}})", "s.json");
  const auto doc =
      nlohmann::json::parse(gate(R"({"id": "A", "status": "passed"})", project, cov).to_json());
  EXPECT_EQ(doc["releasable"], false);
  EXPECT_EQ(doc["project_file"], "requirements/simverify.yaml");
  EXPECT_EQ(doc["coverage"]["line"]["covered"], 9.0);
  EXPECT_TRUE(doc["coverage"]["branch"].is_null());
  EXPECT_EQ(doc["checks"].back()["ok"], false);
  EXPECT_EQ(doc["checks"].back()["text"],
            "line coverage 90.0% (9 of 10) is below the test-ready bar 95.0%");
  EXPECT_TRUE(
      nlohmann::json::parse(gate(R"({"id": "A", "status": "passed"})").to_json())["project_file"]
          .is_null());
}

TEST(GateInputs, MalformedCoverageSummaries) {
  const auto message = [](const std::string& text) {
    return fw::fakes::runtime_error_of([&] { (void)fw::parse_coverage(text, "cov"); });
  };
  // Neither '{' nor '<' first: read as an lcov tracefile.
  EXPECT_EQ(message("[1]"), "cov:1: expected an lcov record 'KEY:value', got '[1]'");
  EXPECT_EQ(message("{}"), "cov: expected \"line\" and/or \"branch\" figures");
  EXPECT_EQ(message(R"({"line": 80})"),
            "cov: \"line\": expected an object {\"covered\", \"total\", \"percent\"}");
  EXPECT_EQ(message(R"({"line": {"covered": -1, "total": 2}})"),
            "cov: \"line\": \"covered\" must be a non-negative number");
  EXPECT_EQ(
      message(R"({"branch": {"percent": 120}})"),
      "cov: \"branch\": expected \"covered\" and \"total\", or \"percent\" between 0 and 100");
  EXPECT_EQ(message(" \n\t"), "cov: empty coverage file");
}

TEST(GateInputs, MalformedLcovTracefilesNameTheLine) {
  const auto message = [](const std::string& text) {
    return fw::fakes::runtime_error_of([&] { (void)fw::parse_coverage(text, "c.info"); });
  };
  EXPECT_EQ(message("SF:a.cpp\nLF:3\n"),
            "c.info: not a coverage file: expected ci/coverage's summary JSON, Cobertura XML or an "
            "lcov tracefile (no 'end_of_record' line found)");
  EXPECT_EQ(message("SF:a.cpp\nnonsense\nend_of_record\n"),
            "c.info:2: expected an lcov record 'KEY:value', got 'nonsense'");
  EXPECT_EQ(message("SF:a.cpp\nDA:7\nend_of_record\n"), "c.info:2: expected DA:line,count");
  EXPECT_EQ(message("SF:a.cpp\nBRDA:1\nend_of_record\n"),
            "c.info:2: expected BRDA:line,block,branch,taken");
  EXPECT_EQ(message("TN:\nSF:a.cpp\nLH:-2\nend_of_record\n"),
            "c.info:3: expected a non-negative count, got '-2'");
  EXPECT_EQ(message("SF:a.cpp\nDA:1,1x\nend_of_record\n"),
            "c.info:2: expected a non-negative count, got '1x'");
  // Counts are whole decimals: std::stod alone read these as NaN, 16 and 1000.
  for (const char* count : {"nan", "0x10", "1e3", "inf"}) {
    EXPECT_EQ(message(fmt::format("SF:a.cpp\nDA:1,{}\nend_of_record\n", count)),
              fmt::format("c.info:2: expected a non-negative count, got '{}'", count));
  }
  // Windows line endings and blank lines are fine; a tracefile without branches has no
  // branch figure (rather than 0 of 0).
  const auto s =
      fw::parse_coverage("SF:a.cpp\r\n\r\nDA:1,0\r\nDA:2,5,abc\r\nend_of_record\r\n", "c.info");
  ASSERT_TRUE(s.line.has_value());
  EXPECT_DOUBLE_EQ(s.line->covered, 1);
  EXPECT_DOUBLE_EQ(s.line->total, 2);
  EXPECT_FALSE(s.branch.has_value());
}

TEST(GateInputs, LcovRecordsOfOneFileAreMergedPerLineAndBranch) {
  // `lcov -a t1.info -a t2.info` writes one TN: section per test, each with the same SF:. A
  // line is one line however many tests ran it: util.c (5 lines) in 11 sections and core.c
  // (42 lines, none run) are 5 of 47, as `lcov --summary` says, not 55 of 97.
  std::string text = "TN:test1\nSF:/w/core.c\n";
  for (int l = 1; l <= 42; ++l) text += fmt::format("DA:{},0\n", l);
  text += "LF:42\nLH:0\nend_of_record\n";
  for (int t = 1; t <= 11; ++t) {
    text += fmt::format("TN:test{}\nSF:/w/util.c\n", t);
    for (int l = 1; l <= 5; ++l) text += fmt::format("DA:{},1\n", l);
    text += "LF:5\nLH:5\nend_of_record\n";
  }
  const auto merged = fw::parse_coverage(text, "total.info");
  ASSERT_TRUE(merged.line.has_value());
  EXPECT_DOUBLE_EQ(merged.line->covered, 5);
  EXPECT_DOUBLE_EQ(merged.line->total, 47);
  // A line is covered when any record covers it; a line named twice in one record is one.
  const auto lines = fw::parse_coverage(
      "SF:a.c\nDA:1,0\nDA:2,0\nDA:2,3\nDA:02,0\nend_of_record\n"
      "SF:a.c\nDA:1,4\nDA:2,0\nend_of_record\n",
      "a.info");
  EXPECT_DOUBLE_EQ(lines.line->covered, 2);
  EXPECT_DOUBLE_EQ(lines.line->total, 2);
  // Branches likewise, by line, block and branch; "-" is a branch never reached.
  const auto branches = fw::parse_coverage(
      "SF:a.c\nDA:1,1\nBRDA:1,0,0,-\nBRDA:1,0,1,0\nBRDA:1,e0,2,0\nend_of_record\n"
      "SF:a.c\nDA:1,1\nBRDA:1,0,0,2\nBRDA:1,0,1,0\nend_of_record\n"
      "SF:b.c\nDA:1,1\nBRDA:1,0,0,1\nend_of_record\n",
      "b.info");
  ASSERT_TRUE(branches.branch.has_value());
  EXPECT_DOUBLE_EQ(branches.branch->covered, 2);
  EXPECT_DOUBLE_EQ(branches.branch->total, 4);
  EXPECT_DOUBLE_EQ(branches.line->total, 2);
  // Totals alone cannot be merged by line: the largest of a file's records counts, never
  // their sum; records of other files (or of none) add up.
  const auto totals = fw::parse_coverage(
      "SF:a.c\nLF:10\nLH:4\nBRF:4\nBRH:1\nend_of_record\n"
      "SF:a.c\nLF:10\nLH:6\nBRF:4\nBRH:2\nend_of_record\n"
      "SF:b.c\nLF:10\nLH:0\nend_of_record\nLF:2\nLH:2\nend_of_record\n"
      "LF:2\nLH:2\nend_of_record\n",
      "t.info");
  EXPECT_DOUBLE_EQ(totals.line->covered, 10);
  EXPECT_DOUBLE_EQ(totals.line->total, 24);
  EXPECT_DOUBLE_EQ(totals.branch->covered, 2);
  EXPECT_DOUBLE_EQ(totals.branch->total, 4);
  EXPECT_EQ(fw::fakes::runtime_error_of(
                [] { (void)fw::parse_coverage("SF:a.c\nDA:x,1\nend_of_record\n", "c"); }),
            "c:2: expected a non-negative count, got 'x'");
}

TEST(GateInputs, MalformedCobertura) {
  const auto message = [](const std::string& text) {
    return fw::fakes::runtime_error_of([&] { (void)fw::parse_coverage(text, "c.xml"); });
  };
  EXPECT_EQ(message("<?xml version=\"1.0\"?><report/>"),
            "c.xml: expected a Cobertura <coverage> root element, found <report>");
  EXPECT_EQ(message(R"(<coverage line-rate="0.5" version="7"/>)"),
            "c.xml: <coverage> lacks lines-covered/lines-valid");
  const auto no_branches = fw::parse_coverage(
      R"(<coverage lines-covered="1" lines-valid="2" branches-covered="0" branches-valid="0"/>)",
      "c.xml");
  EXPECT_FALSE(no_branches.branch.has_value());
  for (const char* number : {"nan", "1e3", "-1", "0x10", "", "1.2.3"}) {
    EXPECT_EQ(
        message(fmt::format(R"(<coverage lines-covered="{}" lines-valid="9"/>)", number)),
        fmt::format(R"(c.xml: <coverage> attribute lines-covered="{}" is not a number)", number));
  }
  // A <coverage> in a comment is no element: the root's figures count (a regular expression
  // found the comment's 100 %).
  const auto real = fw::parse_coverage(
      "<!-- <coverage lines-covered=\"100\" lines-valid=\"100\"> -->\n"
      "<coverage lines-covered=\"1\" lines-valid=\"100\"></coverage>",
      "c.xml");
  ASSERT_TRUE(real.line.has_value());
  EXPECT_DOUBLE_EQ(real.line->percent, 1.0);
  // A start tag of megabytes, closed or not, is read or refused, never a crash (the regular
  // expression's recursion overflowed the stack from about 50 KB).
  const std::string spaces(5'000'000, ' ');
  EXPECT_EQ(message("<coverage" + spaces),
            "c.xml: not valid XML at byte 5000008: Error parsing start element tag");
  const auto wide =
      fw::parse_coverage("<coverage" + spaces + R"(lines-covered="3" lines-valid="4"/>)", "c.xml");
  EXPECT_DOUBLE_EQ(wide.line->percent, 75.0);
}

TEST(ProjectFileInputs, EveryProblemHasFileLineAndColumn) {
  EXPECT_EQ(first_gate_error(""),
            "p.yaml:1:1: error: the project file is empty; expected a `gate:` section");
  EXPECT_EQ(first_gate_error("just text\n"),
            "p.yaml:1:1: error: expected a mapping with a `gate:` section at the top of the file");
  EXPECT_EQ(
      first_gate_error("gate: 3\n"),
      "p.yaml:1:7: error: expected `gate:` to be a mapping with `levels:` and/or `coverage:`");
  EXPECT_EQ(first_gate_error("other: 1\n"),
            "p.yaml:1:1: error: unknown top-level key 'other'; expected 'gate'");
  EXPECT_EQ(
      first_gate_error("gat: {}\n"),
      "p.yaml:1:1: error: unknown top-level key 'gat'; expected 'gate' (did you mean 'gate'?)");
  EXPECT_EQ(
      first_gate_error("gate:\n  levels: unit\n"),
      "p.yaml:2:11: error: expected `levels:` to be a list such as [unit, integration, system]");
  EXPECT_EQ(
      first_gate_error("gate:\n  levels: [[unit]]\n"),
      "p.yaml:2:12: error: expected a level (unit, integration or system), got 'a collection'");
  EXPECT_EQ(first_gate_error("gate:\n  levels: [unit, unit]\n"),
            "p.yaml:2:18: error: level 'unit' is listed twice");
  EXPECT_EQ(
      first_gate_error("gate:\n  coverage: 80\n"),
      "p.yaml:2:13: error: expected `coverage:` to be a mapping such as {line: 80, branch: 50}");
  EXPECT_EQ(first_gate_error("gate:\n  coverage: {line: 80%}\n"),
            "p.yaml:2:20: error: expected a percentage between 0 and 100, got '80%'");
  EXPECT_EQ(first_gate_error("gate:\n  coverage: {line: [80]}\n"),
            "p.yaml:2:20: error: expected a percentage between 0 and 100, got 'a collection'");
  EXPECT_EQ(first_gate_error("gate:\n  coverage: {branch: -1}\n"),
            "p.yaml:2:22: error: expected a percentage between 0 and 100, got '-1'");
  // Repeated keys are found by the YAML reading the requirement loader shares, at any depth.
  EXPECT_EQ(first_gate_error("gate: {levels: [unit]}\ngate: {levels: [system]}\n"),
            "p.yaml:2:1: error: duplicate key 'gate' in the top-level mapping (first at line 1)");
  EXPECT_EQ(first_gate_error("gate:\n  levels: [unit]\n  levels: [system]\n"),
            "p.yaml:3:3: error: duplicate key 'levels' in gate (first at line 2)");
  EXPECT_EQ(first_gate_error("gate:\n  coverage: {line: 80, line: 90}\n"),
            "p.yaml:2:24: error: duplicate key 'line' in coverage (first at line 2)");
  EXPECT_EQ(first_gate_error("gate: {levels: [unit]}\n---\ngate: {levels: [system]}\n")
                .find("p.yaml:2:1: error: a second YAML document"),
            0U);
  EXPECT_EQ(first_gate_error("gate: {levels: [unit\n").rfind("p.yaml:", 0), 0U);
  EXPECT_NE(first_gate_error("gate: {levels: [unit\n").find("YAML syntax"), std::string::npos);
  EXPECT_EQ(first_gate_error("gate: {}\n"), "(no error)");  // an empty gate only checks the run
}

TEST(ProjectFileInputs, MissingFileIsOneDiagnostic) {
  const auto r = fw::load_project_file("/nonexistent/simverify.yaml");
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_EQ(r.errors.front().str(),
            "/nonexistent/simverify.yaml: error: cannot read the project file");
}

TEST(DecideGate, ReadsResultsProjectFileAndCoverageFromDisk) {
  const TempDir dir;
  EXPECT_NE(fw::fakes::runtime_error_of([&] {
              (void)decide(dir, {});
            }).find((dir.path / "results.json").string() + ": cannot read results"),
            std::string::npos);
  run_pack(dir);
  dir.write("project.yaml", "gate:\n  levels: [unit]\n  coverage: {line: 50}\n");
  dir.write("cov.info", "SF:a.cpp\nLF:4\nLH:3\nend_of_record\n");
  const auto d =
      decide(dir, {(dir.path / "cov.info").string(), (dir.path / "project.yaml").string(), {}, {}});
  EXPECT_TRUE(d.releasable) << d.to_json();
  EXPECT_EQ(d.project_file, (dir.path / "project.yaml").string());
  ASSERT_TRUE(d.coverage && d.coverage->line);
  EXPECT_DOUBLE_EQ(d.coverage->line->percent, 75);

  dir.write("bad.yaml", "gate:\n  levels: [unit, acceptance]\n  coverage: {line: 180}\n");
  // Every error of the project file, each a diagnostic of its own (one console line each).
  std::vector<std::string> errors;
  try {
    (void)decide(dir, {{}, (dir.path / "bad.yaml").string(), {}, {}});
  } catch (const fw::DiagnosticsError& e) {
    for (const auto& error : e.diagnostics()) errors.push_back(error.str());
  }
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].rfind((dir.path / "bad.yaml").string() + ":2:18: error: expected a level", 0),
            0u)
      << errors[0];
  EXPECT_EQ(
      errors[1].rfind((dir.path / "bad.yaml").string() + ":3:20: error: expected a percentage", 0),
      0u)
      << errors[1];
  EXPECT_NE(fw::fakes::runtime_error_of([&] {
              (void)decide(dir, {(dir.path / "none.info").string(), {}, {}, {}});
            }).find("none.info: cannot read coverage data"),
            std::string::npos);
}

TEST(DecideGate, ProjectFileIsTheOneTheRunRecorded) {
  const TempDir dir;
  // No --config: the run's, never one in the working directory. Here the run was given a
  // file, so it recorded a project file of its own choosing (as an older simverify could).
  dir.write("project.yaml", "gate:\n  levels: [system]\n");
  run_pack(dir, (dir.path / "project.yaml").string());
  const auto d = decide(dir, {});
  EXPECT_EQ(d.project_file, (dir.path / "project.yaml").string());
  EXPECT_FALSE(d.releasable);  // the recorded settings ask for the system level
  std::filesystem::remove(dir.path / "project.yaml");
  EXPECT_NE(fw::fakes::runtime_error_of([&] { (void)decide(dir, {}); })
                .find("give the gate settings "
                      "with --config FILE"),
            std::string::npos);
}

TEST(DecideGate, AnEditedProjectFileEntryDropsNoBar) {
  // The run was given the folder `req`, which holds the gate settings: it recorded them. A
  // results.json edited to name none (or a lenient file) still gets the folder's settings, and
  // the edit is named.
  const TempDir dir;
  const std::string settings = record_run_under_strict_settings(dir);
  const auto decide_out = [&] {
    return fw::decide_gate(dir.path / "out", {}, fw::fakes::fake_registry());
  };
  const auto honest = decide_out();
  EXPECT_FALSE(honest.releasable);  // the system level did not run
  EXPECT_EQ(honest.project_file, settings);
  for (const nlohmann::json& edited : project_file_edits(dir)) {
    record_project_file(dir, edited);
    const auto d = decide_out();
    EXPECT_FALSE(d.releasable);
    EXPECT_EQ(d.project_file, settings);
    EXPECT_NE(d.to_json().find("the requirement folders they were run from have " + settings),
              std::string::npos)
        << d.to_json();
  }
}

TEST(DecideGate, AProjectFileThatIsNoFileIsAnError) {
  // A FIFO, a folder or a link to nothing named simverify.yaml must not mean "no settings".
  const TempDir dir;
  fs::create_directories(dir.path / "req");
  dir.write("req/pack.yaml", fw::fakes::kRecordedPack);
  fw::fakes::record_run(dir.path / "req", dir.path / "out", {});
  const fs::path settings = dir.path / "req" / "simverify.yaml";
  fw::GateInputs inputs;
  inputs.requirement_paths = {(dir.path / "req").string()};
  EXPECT_TRUE(fw::decide_gate(dir.path / "out", inputs, fw::fakes::fake_registry()).releasable);
  const auto message = [&] {
    return fw::fakes::runtime_error_of(
        [&] { (void)fw::decide_gate(dir.path / "out", inputs, fw::fakes::fake_registry()); });
  };
  ASSERT_EQ(::mkfifo(settings.c_str(), 0600), 0);
  EXPECT_EQ(message(), settings.string() + ": the project file is a FIFO, not a regular file");
  fs::remove(settings);
  fs::create_directory(settings);
  EXPECT_EQ(message(), settings.string() + ": the project file is a folder, not a regular file");
  fs::remove(settings);
  fs::create_symlink(dir.path / "nothing", settings);
  EXPECT_EQ(message(), settings.string() +
                           ": the project file is a symbolic link to nothing, not a regular file");
}

TEST(DecideGate, FailedTestsBlockReleaseAndAreNamed) {
  const TempDir dir;
  run_pack(dir);
  dir.write("ok.xml", R"(<testsuites><testsuite name="s"><testcase name="a" classname="s"/>
      <testcase name="b" classname="s"><skipped/></testcase></testsuite></testsuites>)");
  dir.write("bad.xml", R"(<testsuite name="ctest"><testcase name="loader_fuzz_replay"
      classname="loader_fuzz_replay"><failure message="Failed"/></testcase>
      <testcase name="t" classname="unit"><error message="crash"/></testcase></testsuite>)");
  dir.write("empty.xml", "<testsuites/>");
  const auto ok = decide(dir, {{}, {}, {(dir.path / "ok.xml").string()}, {}});
  EXPECT_TRUE(ok.releasable) << ok.to_json();
  EXPECT_EQ(ok.verdict(), "RELEASABLE (every requirement passed and every test passed)");
  const auto bad =
      decide(dir, {{}, {}, {(dir.path / "ok.xml").string(), (dir.path / "bad.xml").string()}, {}});
  EXPECT_FALSE(bad.releasable);
  ASSERT_EQ(bad.reasons().size(), 1U) << bad.to_json();
  EXPECT_EQ(bad.reasons().front(), "2 of 2 test(s) failed in " + (dir.path / "bad.xml").string() +
                                       ": loader_fuzz_replay, unit.t");
  EXPECT_FALSE(decide(dir, {{}, {}, {(dir.path / "empty.xml").string()}, {}}).releasable);
  // Every test skipped shows no more than no test at all.
  dir.write("skipped.xml", R"(<testsuite name="s"><testcase name="a"><skipped/></testcase>
      <testcase name="b"><skipped/></testcase></testsuite>)");
  const auto skipped = decide(dir, {{}, {}, {(dir.path / "skipped.xml").string()}, {}});
  ASSERT_EQ(skipped.reasons().size(), 1U) << skipped.to_json();
  EXPECT_EQ(skipped.reasons().front(),
            "no test in " + (dir.path / "skipped.xml").string() + " ran: all 2 were skipped");
  dir.write("notxml.xml", "<testsuite");
  EXPECT_NE(fw::fakes::runtime_error_of([&] {
              (void)decide(dir, {{}, {}, {(dir.path / "notxml.xml").string()}, {}});
            }).find("notxml.xml: not valid XML"),
            std::string::npos);
}

// What CTest 3.25 writes with --output-junit (captured): "notrun" with a <skipped> reason of
// its own for a test that could not run, SKIP_* for one that skipped itself, "disabled".
constexpr const char* kCtestJunit = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)" tests="8" failures="2" disabled="1" skipped="4" hostname="" time="1">
  <testcase name="ok" classname="ok" time="0.01" status="run"><system-out></system-out></testcase>
  <testcase name="fails" classname="fails" time="0.002" status="fail">
    <failure message=""/><system-out></system-out></testcase>
  <testcase name="missing" classname="missing" time="0" status="notrun">
    <skipped message="Unable to find executable"/>
    <system-out>Unable to find executable: /b/nope</system-out></testcase>
  <testcase name="disabled" classname="disabled" time="0" status="disabled">
    <system-out>Disabled</system-out></testcase>
  <testcase name="skipme" classname="skipme" time="0.001" status="notrun">
    <skipped message="SKIP_RETURN_CODE=77"/><system-out></system-out></testcase>
  <testcase name="skipregex" classname="skipregex" time="0.01" status="notrun">
    <skipped message="SKIP_REGULAR_EXPRESSION_MATCHED"/><system-out>SKIPPING</system-out></testcase>
  <testcase name="fixuser" classname="fixuser" time="0" status="notrun">
    <skipped message="Fixture dependency failed"/>
    <system-out>Failed test dependencies: fixsetup</system-out></testcase>
  <testcase name="timeout" classname="timeout" time="1.01" status="fail">
    <failure message=""/><system-out></system-out></testcase>
</testsuite>)xml";

TEST(TestResultsInputs, EachWriterSaysNotRunAndDisabledItsOwnWay) {
  // CTest fails a test it could not run (exit 8, "Not Run"): so does the gate, naming why.
  const auto ctest = fw::parse_junit(kCtestJunit, "ctest.xml");
  EXPECT_EQ(ctest.tests, 8);
  EXPECT_EQ(ctest.failed, 4);
  EXPECT_EQ(ctest.not_run, 2);
  EXPECT_EQ(ctest.skipped, 3);
  EXPECT_EQ(ctest.disabled, 1);
  EXPECT_EQ(ctest.failing,
            (std::vector<std::string>{"fails", "missing (not run: Unable to find executable)",
                                      "fixuser (not run: Fixture dependency failed)", "timeout"}));
  // GoogleTest: a DISABLED_ test is status="notrun" result="suppressed" (older versions: no
  // result, no <skipped>); GTEST_SKIP is <skipped> in a test that ran.
  const auto gtest = fw::parse_junit(R"(<testsuites><testsuite name="S">
      <testcase name="DISABLED_a" status="notrun" result="suppressed" classname="S"/>
      <testcase name="DISABLED_b" status="notrun" classname="S"/>
      <testcase name="c" status="run" result="skipped" classname="S"><skipped message="x"/></testcase>
      <testcase name="d" status="run" result="completed" classname="S"/>
      </testsuite></testsuites>)",
                                     "gtest.xml");
  EXPECT_EQ(gtest.failed, 0);
  EXPECT_EQ(gtest.skipped, 3);
  EXPECT_EQ(gtest.disabled, 2);
  // Boost.Test: a disabled or skipped test case is <skipped/>, no status.
  const auto boost = fw::parse_junit(R"(<testsuite name="m" tests="2" skipped="1">
      <testcase assertions="0" name="off" classname="m" time="0"><skipped/></testcase>
      <testcase assertions="1" name="on" classname="m" time="0"></testcase></testsuite>)",
                                     "boost.xml");
  EXPECT_EQ(boost.failed, 0);
  EXPECT_EQ(boost.skipped, 1);
}

TEST(DecideGate, TestsThatCouldNotRunOrWereDisabledPassNothing) {
  const TempDir dir;
  run_pack(dir);
  dir.write("ctest.xml", kCtestJunit);
  const auto ctest = decide(dir, {{}, {}, {(dir.path / "ctest.xml").string()}, {}});
  EXPECT_FALSE(ctest.releasable);
  ASSERT_EQ(ctest.reasons().size(), 1U) << ctest.to_json();
  EXPECT_EQ(ctest.reasons().front(),
            "2 of 8 test(s) failed and 2 could not run in " + (dir.path / "ctest.xml").string() +
                ": fails, missing (not run: Unable to find executable), fixuser (not run: Fixture "
                "dependency failed), timeout");
  dir.write("missing.xml", R"(<testsuite><testcase name="solver" status="run"/>
      <testcase name="fmu" status="notrun"><skipped message="Unable to find executable"/>
      </testcase></testsuite>)");
  const auto missing = decide(dir, {{}, {}, {(dir.path / "missing.xml").string()}, {}});
  ASSERT_EQ(missing.reasons().size(), 1U) << missing.to_json();
  EXPECT_EQ(missing.reasons().front(), "1 of 2 test(s) could not run in " +
                                           (dir.path / "missing.xml").string() +
                                           ": fmu (not run: Unable to find executable)");
  // Every test disabled: none ran, none passed.
  dir.write("disabled.xml", R"(<testsuite><testcase name="a" status="disabled"/>
      <testcase name="b" status="notrun" result="suppressed"/></testsuite>)");
  const auto disabled = decide(dir, {{}, {}, {(dir.path / "disabled.xml").string()}, {}});
  ASSERT_EQ(disabled.reasons().size(), 1U) << disabled.to_json();
  EXPECT_EQ(disabled.reasons().front(), "no test in " + (dir.path / "disabled.xml").string() +
                                            " ran: all 2 were skipped (2 disabled)");
  dir.write("some.xml", R"(<testsuite><testcase name="a" status="disabled"/>
      <testcase name="b" status="run"/></testsuite>)");
  const auto some = decide(dir, {{}, {}, {(dir.path / "some.xml").string()}, {}});
  EXPECT_TRUE(some.releasable) << some.to_json();
  EXPECT_NE(some.to_json().find("1 of 2 test(s) passed (" + (dir.path / "some.xml").string() +
                                ", 1 skipped (1 disabled))"),
            std::string::npos)
      << some.to_json();
}

TEST(DecideGate, RequirementFilesGivenFindTheProjectFileBesideThem) {
  // The run was given the folder `req`; the gate the file req/pack.yaml. Giving the gate the
  // files to check against must never make it weaker: their folder's settings hold, whatever
  // results.json records.
  const TempDir dir;
  const std::string settings = record_run_under_strict_settings(dir);
  EXPECT_EQ(fw::project_file_beside({(dir.path / "req" / "pack.yaml").string()}), settings);
  fw::GateInputs inputs;
  inputs.requirement_paths = {(dir.path / "req" / "pack.yaml").string()};
  const auto decide_out = [&] {
    return fw::decide_gate(dir.path / "out", inputs, fw::fakes::fake_registry());
  };
  EXPECT_EQ(decide_out().project_file, settings);
  for (const nlohmann::json& edited : project_file_edits(dir)) {
    record_project_file(dir, edited);
    const auto d = decide_out();
    EXPECT_FALSE(d.releasable) << d.to_json();
    EXPECT_EQ(d.project_file, settings);
    EXPECT_TRUE(has_reason(d, "level system is required by the gate")) << d.to_json();
  }
  // Requirement files with no project file beside them, results that record one: the recorded
  // file is not believed (it may be an edit's lenient one), and the difference fails.
  fs::create_directories(dir.path / "bare");
  dir.write("bare/pack.yaml", fw::fakes::kRecordedPack);
  inputs.requirement_paths = {(dir.path / "bare" / "pack.yaml").string()};
  const auto bare = decide_out();
  EXPECT_TRUE(bare.project_file.empty());
  EXPECT_TRUE(has_reason(bare, "the results record the project file " +
                                   (dir.path / "lenient.yaml").string() +
                                   ", the requirement files given with --requirements have none "
                                   "beside them"))
      << bare.to_json();
}

TEST(DecideGate, ProjectFileBesideTheGivenRequirementsWins) {
  // The run's checkout at `old`, its results in `out`; the checkout moved to `now` (another
  // runner, another build folder): the recorded path is gone, --requirements names the new one.
  const TempDir dir;
  for (const char* checkout : {"old", "now"}) {
    fs::create_directories(dir.path / checkout);
    dir.write(std::string(checkout) + "/pack.yaml", fw::fakes::kRecordedPack);
    dir.write(std::string(checkout) + "/simverify.yaml", "gate:\n  levels: [system]\n");
  }
  fw::RunOptions options;
  options.project_file = (dir.path / "old" / "simverify.yaml").string();
  fw::fakes::record_run(dir.path / "old" / "pack.yaml", dir.path / "out", options);
  fs::remove_all(dir.path / "old");
  fw::GateInputs inputs;
  inputs.requirement_paths = {(dir.path / "now").string()};
  const auto d = fw::decide_gate(dir.path / "out", inputs, fw::fakes::fake_registry());
  EXPECT_EQ(d.project_file, (dir.path / "now" / "simverify.yaml").string());
  EXPECT_FALSE(d.releasable);  // the checkout's settings ask for the system level
  // A file, not a folder: the project file beside it, in its folder, as `run` finds it.
  inputs.requirement_paths = {(dir.path / "now" / "pack.yaml").string()};
  const auto file = fw::decide_gate(dir.path / "out", inputs, fw::fakes::fake_registry());
  EXPECT_EQ(file.project_file, (dir.path / "now" / "simverify.yaml").string());
  EXPECT_FALSE(file.releasable);
}
