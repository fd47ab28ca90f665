// Reading a results.json as it is parsed (read_results) gives the document, the errors and so
// the verdicts that parsing its whole text gives (parse_results): a large file is read in
// pieces only to hold less memory (docs/runner.md, "Reading large results").
#include "diff.hpp"
#include "gate.hpp"
#include "recorded_run.hpp"
#include "results_file.hpp"
#include "runtime_error_of.hpp"
#include "test_folder.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fw = simverify::framework;
namespace fs = std::filesystem;

namespace {

// A fresh folder for one test (test_folder.hpp).
struct ResultsReadDir : fw::fakes::TestFolder {
  ResultsReadDir() : TestFolder("simverify-results-read") {}
};

std::string text_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

// 20,000 points of `square` (y = x^2, "<= 10"): x = 4 i / 19999 fails from i = 15811 on
// (x > sqrt(10)), 4,189 points; B passes at its 4 points.
constexpr const char* kLargePack = R"(requirements:
  - id: LARGE
    title: "many points, some failing: \"quoted\", caf\u00e9"
    level: unit
    component: square
    conditions: {x: {linspace: [0, 4, 20000]}}
    quality: {measure: y, threshold: "<= 10"}
  - id: B
    title: scaled squares
    level: unit
    component: square
    conditions: {x: [1, 3], k: [1, 2]}
    quality: {measure: y, threshold: "<= 20"}
)";

}  // namespace

TEST(ResultsRead, ALargeFileReadInPiecesIsTheDocumentItsTextIs) {
  const ResultsReadDir dir;
  write(dir.path / "pack.yaml", kLargePack);
  fw::fakes::record_run(dir.path / "pack.yaml", dir.path);
  const fs::path file = dir.path / fw::kResultsFileName;
  ASSERT_GT(fs::file_size(file), std::uintmax_t{1} << 20);  // more than a piece of 64 KiB
  const fw::ResultsJson streamed = fw::read_results(dir.path);
  const fw::ResultsJson whole = fw::parse_results(text_of(file), file.string());
  EXPECT_EQ(streamed, whole);
  // ordered_json: the same keys in the same order, the same numbers (as written back).
  std::string a;
  std::string b;
  fw::append_value(a, streamed);
  fw::append_value(b, whole);
  EXPECT_EQ(a, b);
  ASSERT_EQ(streamed["requirements"][0]["points"].size(), 20000U);
}

TEST(ResultsRead, TheGateDecidesALargeFileAsBefore) {
  const ResultsReadDir dir;
  write(dir.path / "pack.yaml", kLargePack);
  fw::fakes::record_run(dir.path / "pack.yaml", dir.path);
  const fw::GateDecision d = fw::decide_gate(dir.path, {}, fw::fakes::fake_registry());
  EXPECT_FALSE(d.releasable);
  ASSERT_EQ(d.requirements.size(), 2U);
  EXPECT_EQ(d.requirements[0].id, "LARGE");
  EXPECT_EQ(d.requirements[0].status, "failed");
  EXPECT_EQ(d.requirements[1].status, "passed");
  // The counts, as the gate read them from the whole text before.
  const auto reasons = d.reasons();
  const std::string all = fmt::format("{}", fmt::join(reasons, "\n"));
  EXPECT_NE(all.find("1 of 2 planned requirement(s) passed at every grid point"), std::string::npos)
      << all;
  EXPECT_EQ(d.requirements[0].reason, "worst 16 at x=4 (threshold <= 10)");
  const fw::ResultsJson doc = fw::read_results(dir.path);
  const auto& points = doc["requirements"][0]["points"];
  EXPECT_EQ(std::count_if(points.begin(), points.end(),
                          [](const auto& p) { return !p["passed"].template get<bool>(); }),
            4189);
  // The decision over the whole text is the same (without the source check, which needs the
  // folder).
  const fw::GateDecision from_text = fw::evaluate_gate(
      text_of(dir.path / fw::kResultsFileName), (dir.path / fw::kResultsFileName).string(), {}, {});
  ASSERT_EQ(from_text.requirements.size(), d.requirements.size());
  for (std::size_t i = 0; i < d.requirements.size(); ++i) {
    EXPECT_EQ(from_text.requirements[i].status, d.requirements[i].status);
    EXPECT_EQ(from_text.requirements[i].reason, d.requirements[i].reason);
  }
  // And against itself, nothing changed.
  const fw::ResultsDiff diff = fw::diff_result_folders(dir.path, dir.path, true);
  const std::string label = (dir.path / fw::kResultsFileName).string();
  const std::string text = text_of(dir.path / fw::kResultsFileName);
  EXPECT_EQ(diff.to_text(true), fw::diff_results(text, label, text, label, true).to_text(true));
  EXPECT_EQ(diff.to_json(), fw::diff_results(text, label, text, label, true).to_json());
}

TEST(ResultsRead, AFileThatIsNoDocumentIsRefusedAsItsWholeTextIs) {
  const ResultsReadDir dir;
  write(dir.path / "pack.yaml", kLargePack);
  fw::fakes::record_run(dir.path / "pack.yaml", dir.path);
  const fs::path file = dir.path / fw::kResultsFileName;
  const std::string text = text_of(file);
  const std::string label = file.string();
  const auto refused_alike = [&](const std::string& changed) {
    write(file, changed);
    const std::string whole =
        fw::fakes::runtime_error_of([&] { (void)fw::parse_results(changed, label); });
    EXPECT_EQ(fw::fakes::runtime_error_of([&] { (void)fw::read_results(dir.path); }), whole);
    return whole;
  };
  // Near the end, after many pieces: a repeated key, a byte that is no UTF-8, a syntax error,
  // a number JSON cannot hold, nesting too deep, a wrong type, a cut file.
  const std::size_t end = text.rfind("\"releasable\"");
  ASSERT_NE(end, std::string::npos);
  EXPECT_NE(refused_alike(text.substr(0, end) + "\"complete\": true, " + text.substr(end))
                .find(": duplicate key 'complete'"),
            std::string::npos);
  EXPECT_NE(refused_alike(text.substr(0, end) + "\"x\": \"\xff\", " + text.substr(end))
                .find("invalid UTF-8 (byte 0xff)"),
            std::string::npos);
  EXPECT_NE(
      refused_alike(text.substr(0, end) + "\"x\": ], " + text.substr(end)).find("not valid JSON"),
      std::string::npos);
  EXPECT_NE(refused_alike(text.substr(0, end) + "\"x\": 1e999, " + text.substr(end))
                .find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(refused_alike(text.substr(0, end) + "\"x\": " + std::string(70, '[') +
                          std::string(70, ']') + ", " + text.substr(end))
                .find("nested more than 64 levels deep"),
            std::string::npos);
  EXPECT_NE(refused_alike(text.substr(0, end) + "\"summary\": 3, " + text.substr(end))
                .find("duplicate key 'summary'"),
            std::string::npos);
  EXPECT_NE(refused_alike(text.substr(0, text.size() / 2)).find("not valid JSON"),
            std::string::npos);
  // Valid JSON of the wrong shape: the same check on the streamed document.
  std::string wrong = text;
  const std::size_t passed = wrong.find("\"passed\": true");
  ASSERT_NE(passed, std::string::npos);
  wrong.replace(passed, 14, "\"passed\": 1");
  EXPECT_NE(refused_alike(wrong).find("expected a boolean"), std::string::npos);
}
