// The gate holds results.json to the requirement files it was run from (source_check.hpp): a
// file edited into agreement with itself (a failing requirement cut out and the summary fixed
// up, a threshold loosened, a point moved to an easier condition) or a run that saw only part
// of the files is not releasable.
#include "gate.hpp"
#include "recorded_run.hpp"
#include "test_folder.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fw = simverify::framework;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

// A run of the fakes' pack (recorded_run.hpp) in a folder of its own (test_folder.hpp).
struct SourcedRun {
  const fw::fakes::TestFolder folder{"simverify-sources-test"};
  fs::path dir = folder.path;
  fs::path pack = dir / "pack.yaml";

  // `beside`: files written next to the pack before the run (name, text).
  explicit SourcedRun(const std::string& yaml = fw::fakes::kRecordedPack,
                      const fw::RunOptions& options = {},
                      fw::SeriesOutput series = fw::SeriesOutput::none,
                      const std::vector<std::pair<std::string, std::string>>& beside = {}) {
    std::ofstream(pack) << yaml;
    for (const auto& [name, text] : beside) std::ofstream(dir / name) << text;
    fw::fakes::record_run(pack, dir, options, series);
  }
  // results.json edited in place, as a tamperer would.
  void edit(const std::function<void(Json&)>& change) const {
    Json doc = Json::parse(std::ifstream(dir / "results.json"));
    change(doc);
    std::ofstream(dir / "results.json") << doc.dump(1);
  }

  [[nodiscard]] fw::GateDecision gate(const fw::GateInputs& inputs = {}) const {
    return fw::decide_gate(dir, inputs, fw::fakes::fake_registry());
  }
};

Json& entry(Json& doc, const std::string& id) {
  for (auto& r : doc["requirements"]) {
    if (r["id"] == id) return r;
  }
  throw std::runtime_error("no requirement " + id);
}

std::string all_reasons(const fw::GateDecision& d) {
  std::string text;
  for (const auto& r : d.reasons()) text += r + "\n";
  return text;
}

// A's failing point `index` forged into a pass with `value`, the entry and the summary fixed
// up to match (A is the pack's only requirement): a file that agrees with itself.
void forge_a_pass(Json& doc, std::size_t index, double value) {
  Json& a = entry(doc, "A");
  Json& p = a["points"][index];
  p["value"] = p["quality"] = value;
  p["passed"] = true;
  a.update({{"status", "passed"}, {"reason", ""}, {"worst", value}, {"worst_point", index}});
  doc["summary"]["passed"] = 1;
  doc["summary"]["failed"] = 0;
}

// A's threshold "<= 3" fails at x = 2 (y = 4): this pack's run fails A honestly, and B still
// runs (no fail-fast).
std::string pack_failing_a() {
  std::string yaml = fw::fakes::kRecordedPack;
  yaml.replace(yaml.find("\"<= 10\""), 7, "\"<= 3\"");
  return yaml;
}

fw::RunOptions running_everything() {
  fw::RunOptions options;
  options.fail_fast = fw::FailFast::none;
  return options;
}

}  // namespace

TEST(GateSources, AnHonestRunIsHeldToItsFilesAndPasses) {
  const SourcedRun run;
  const auto d = run.gate();
  EXPECT_TRUE(d.releasable) << d.to_json();
  EXPECT_TRUE(std::any_of(d.checks.begin(), d.checks.end(), [&](const fw::GateCheck& c) {
    return c.ok && c.text == "the results are those of the 2 requirement(s) in " +
                                 fs::absolute(run.pack).string();
  })) << d.to_json();
}

TEST(GateSources, ARequirementCutOutWithItsSummaryFixedIsMissing) {
  const SourcedRun run(pack_failing_a(), running_everything());
  ASSERT_FALSE(run.gate().releasable);
  run.edit([](Json& doc) {
    auto& list = doc["requirements"];
    list.erase(list.begin());  // A, failed
    doc["summary"]["failed"] = 0;
    doc["releasable"] = true;
  });
  const auto d = run.gate();
  EXPECT_FALSE(d.releasable);
  // Everything else agrees: the file is consistent with itself, only the files tell.
  ASSERT_EQ(d.reasons().size(), 1U) << all_reasons(d);
  EXPECT_EQ(d.reasons().front(), "A (" + fs::absolute(run.pack).string() +
                                     ":2:9) is planned but missing from the "
                                     "results");
}

TEST(GateSources, ALoosenedThresholdIsNotBelieved) {
  const SourcedRun run(pack_failing_a(), running_everything());
  run.edit([](Json& doc) {
    Json& a = entry(doc, "A");
    a["threshold"] = "<= 10";
    for (auto& p : a["points"]) p["passed"] = true;
    a["status"] = "passed";
    a["reason"] = "";
    doc["summary"]["passed"] = 2;
    doc["summary"]["failed"] = 0;
    doc["releasable"] = true;
  });
  const auto d = run.gate();
  EXPECT_FALSE(d.releasable);
  ASSERT_EQ(d.reasons().size(), 2U) << all_reasons(d);
  EXPECT_EQ(d.reasons()[0], "1 of 2 planned requirement(s) passed at every grid point");
  EXPECT_EQ(d.reasons()[1],
            "A is marked passed but its threshold is \"<= 10\" in the results, "
            "\"<= 3\" at " +
                fs::absolute(run.pack).string() +
                ":2:9 (the file changed since the run, or results.json was "
                "edited)");
  ASSERT_EQ(d.requirements.front().id, "A");
  EXPECT_EQ(d.requirements.front().status, "failed");  // the report shows the gate's verdict
}

TEST(GateSources, APointMovedToAnotherConditionIsNotBelieved) {
  const SourcedRun run;
  run.edit([](Json& doc) { entry(doc, "B")["points"][3]["condition"]["x"] = 2.5; });
  const auto d = run.gate();
  EXPECT_FALSE(d.releasable);
  EXPECT_NE(all_reasons(d).find("B is marked passed but grid point 3 has the condition "
                                "{\"x\":2.5,\"k\":2} in the results, {\"x\":3,\"k\":2} at "),
            std::string::npos)
      << all_reasons(d);
}

TEST(GateSources, ARequirementAddedToTheFileIsNotPlanned) {
  const SourcedRun run;
  run.edit([](Json& doc) {
    Json copy = entry(doc, "A");
    copy["id"] = "C";
    doc["requirements"].push_back(copy);
    doc["summary"]["passed"] = 3;
  });
  const auto d = run.gate();
  EXPECT_FALSE(d.releasable);
  EXPECT_NE(all_reasons(d).find("C is marked passed but it is not planned from " +
                                fs::absolute(run.pack).string()),
            std::string::npos)
      << all_reasons(d);
}

TEST(GateSources, ANarrowedRunShowsOnlyPartOfTheRequirements) {
  fw::RunOptions only_a;
  only_a.filter = "A";
  const SourcedRun filtered(fw::fakes::kRecordedPack, only_a);
  const auto d = filtered.gate();
  ASSERT_EQ(d.reasons().size(), 1U) << all_reasons(d);
  EXPECT_EQ(d.reasons().front(),
            "the run was narrowed (--filter 'A'): it planned 1 of the 2 "
            "requirement(s) in " +
                fs::absolute(filtered.pack).string());
}

TEST(GateSources, TheFingerprintHoldsWhatTheEntriesDoNotShow) {
  const SourcedRun run;
  run.edit([](Json& doc) { doc["summary"]["fail_fast"] = "none"; });
  const auto reasons = all_reasons(run.gate());
  EXPECT_NE(reasons.find("the results record the plan fingerprint "), std::string::npos) << reasons;
  EXPECT_NE(reasons.find("(they changed since the run, or results.json was edited)"),
            std::string::npos);
}

TEST(GateSources, AFileChangedSinceTheRunIsNamed) {
  const SourcedRun run;
  std::string yaml = fw::fakes::kRecordedPack;
  yaml.replace(yaml.find("small squares"), 13, "tiny squares");
  std::ofstream(run.pack) << yaml;
  const auto reasons = all_reasons(run.gate());
  EXPECT_NE(reasons.find("A is marked passed but its title is \"small squares\" in the results, "
                         "\"tiny squares\" at "),
            std::string::npos)
      << reasons;
}

TEST(GateSources, ResultsThatNameNoSourcesAskForThem) {
  const SourcedRun run;
  run.edit([](Json& doc) { doc["plan"].erase("sources"); });
  const auto d = run.gate();
  ASSERT_EQ(d.reasons().size(), 1U) << all_reasons(d);
  EXPECT_EQ(d.reasons().front(), (run.dir / "results.json").string() +
                                     " does not record the requirement files it was run from "
                                     "(an older simverify wrote it, or it was edited); give "
                                     "them with --requirements PATH");
  // --requirements gives them.
  EXPECT_TRUE(run.gate({{}, {}, {}, {run.pack.string()}}).releasable);
}

TEST(GateSources, UnreadableOrInvalidSourcesAreBadInput) {
  const SourcedRun run;
  fs::rename(run.pack, run.dir / "moved.yaml");
  try {
    (void)run.gate();
    ADD_FAILURE() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("which cannot be read here; give the requirement files "
                                         "with --requirements PATH"),
              std::string::npos)
        << e.what();
  }
  // Given instead, they must load: errors are the loader's, with their places.
  std::ofstream(run.dir / "broken.yaml") << "requirements:\n  - id: A\n    level: moon\n";
  EXPECT_THROW((void)run.gate({{}, {}, {}, {(run.dir / "broken.yaml").string()}}),
               fw::DiagnosticsError);
  EXPECT_TRUE(run.gate({{}, {}, {}, {(run.dir / "moved.yaml").string()}}).releasable);
}

TEST(GateRecheck, HonestPointsGiveTheirValuesAgain) {
  const SourcedRun run;
  fw::GateInputs all;
  all.recheck = std::numeric_limits<std::size_t>::max();
  const auto d = run.gate(all);
  EXPECT_TRUE(d.releasable) << all_reasons(d);
  EXPECT_TRUE(std::any_of(d.checks.begin(), d.checks.end(), [](const fw::GateCheck& c) {
    return c.ok && c.text ==
                       "6 point(s) of 2 requirement(s), drawn at random and re-evaluated, "
                       "give the values and series results.json records";
  }));
}

TEST(GateRecheck, AValueEditedWithItsMeasuresIsCaughtByEvaluatingAgain) {
  const SourcedRun run(pack_failing_a(), running_everything());
  // A failed at x = 2 (y = 4 > 3): its measures and values halved agree with each other, with
  // the threshold and with the file; only the component knows better.
  run.edit([](Json& doc) {
    Json& a = entry(doc, "A");
    for (auto& p : a["points"]) {
      const double halved = p["measures"]["y"].get<double>() / 2;
      p["measures"]["y"] = halved;
      p["value"] = halved;
      p["quality"] = halved;
      p["passed"] = true;
    }
    a["status"] = "passed";
    a["reason"] = "";
    a["worst"] = 2;
    doc["summary"]["passed"] = 2;
    doc["summary"]["failed"] = 0;
  });
  EXPECT_TRUE(run.gate().releasable) << "the files alone cannot tell";
  fw::GateInputs one;
  one.recheck = 1;  // every point of A was edited: any one drawn tells
  const auto d = run.gate(one);
  EXPECT_FALSE(d.releasable);
  const std::string reasons = all_reasons(d);
  EXPECT_NE(reasons.find("A is marked passed but grid point "), std::string::npos) << reasons;
  EXPECT_NE(reasons.find(" re-evaluated gives the value "), std::string::npos) << reasons;
  EXPECT_NE(reasons.find("(edited after the run?)"), std::string::npos) << reasons;
}

TEST(GateRecheck, PointsOutsideTheFilesGridAreNotEvaluated) {
  const SourcedRun run;
  // B's grid shrank from 4 points to 2 since the run: its recorded points 2 and 3 have no
  // condition in the files. The sources check names the difference; only A's 2 points and
  // the 2 of B inside the grid are evaluated.
  std::string yaml = fw::fakes::kRecordedPack;
  yaml.replace(yaml.find("k: [1, 2]"), 9, "k: [1]");
  std::ofstream(run.dir / "smaller.yaml") << yaml;
  std::ostringstream progress;
  fw::GateInputs inputs;
  inputs.requirement_paths = {(run.dir / "smaller.yaml").string()};
  inputs.recheck = std::numeric_limits<std::size_t>::max();
  inputs.progress = &progress;
  const auto d = run.gate(inputs);
  EXPECT_FALSE(d.releasable);
  EXPECT_EQ(progress.str(), "gate: evaluating 4 point(s) of 2 requirement(s) again\n");
  const std::string reasons = all_reasons(d);
  EXPECT_NE(reasons.find("B is marked passed but its grid_size is 4 in the results, 2 at "),
            std::string::npos)
      << reasons;
}

TEST(GateRecheck, APointOverTheTimeoutIsAnErrorNotAWait) {
  // The run's point took 0.5 s; evaluated again under a 0.05 s limit it is killed, and its
  // requirement's pass is not believed (a point that hangs when evaluated again must end the
  // gate with a decision, not hold it until the CI job's own timeout).
  const SourcedRun run(R"(requirements:
  - id: S
    title: a slow point
    level: unit
    component: sleeper
    conditions: {seconds: [0.5]}
    quality: {measure: y, threshold: "<= 10"}
)");
  fw::GateInputs limited;
  limited.recheck = 1;
  limited.recheck_timeout_seconds = 0.05;
  const auto d = run.gate(limited);
  EXPECT_FALSE(d.releasable);
  const std::string reasons = all_reasons(d);
  EXPECT_NE(reasons.find("S is marked passed but grid point 0 re-evaluated gives an error (timed "
                         "out after 0.05 s"),
            std::string::npos)
      << reasons;
  limited.recheck_timeout_seconds = 0;  // no limit: the same point passes again
  EXPECT_TRUE(run.gate(limited).releasable);
}

namespace {

fw::GateInputs rechecking_all() {
  fw::GateInputs all;
  all.recheck = std::numeric_limits<std::size_t>::max();
  return all;
}

// The fakes' pack run with --series all: every point stores its series `s` (x t on t = 0,
// 0.5, 1) as series/<id>/<index>-s.csv.
struct SeriesRun : SourcedRun {
  SeriesRun() : SourcedRun(fw::fakes::kRecordedPack, {}, fw::SeriesOutput::all) {}
  [[nodiscard]] fs::path csv(const std::string& id, int index) const {
    return dir / "series" / id / (std::to_string(index) + "-s.csv");
  }
};

}  // namespace

TEST(GateRecheck, HonestSeriesGiveTheirFilesAgain) {
  const SeriesRun run;
  ASSERT_TRUE(fs::is_regular_file(run.csv("A", 1)));
  const auto d = run.gate(rechecking_all());
  EXPECT_TRUE(d.releasable) << all_reasons(d);
}

TEST(GateRecheck, ASeriesFileEditedAloneIsCaught) {
  const SeriesRun run;
  // A's point 1 (x = 2): s is 0, 1, 2. The last sample flattened to 1.5 changes only the
  // report's plot: every recorded number still agrees, so only reading the file tells.
  std::ofstream(run.csv("A", 1)) << "t,s\n0,0\n0.5,1\n1,1.5\n";
  EXPECT_TRUE(run.gate().releasable) << "without --recheck no file is read";
  const auto d = run.gate(rechecking_all());
  EXPECT_FALSE(d.releasable);
  const std::string reasons = all_reasons(d);
  EXPECT_NE(reasons.find("A is marked passed but grid point 1 re-evaluated: its measure s: " +
                         run.csv("A", 1).string() + ":4: s is 2 re-evaluated, 1.5 in the file"),
            std::string::npos)
      << reasons;
  EXPECT_EQ(reasons.find("B is marked passed but"), std::string::npos) << reasons;
}

TEST(GateRecheck, ASeriesFileWithRowsCutOrColumnsRenamedIsCaught) {
  const SeriesRun run;
  std::ofstream(run.csv("A", 0)) << "t,s\n0,0\n0.5,0.5\n";
  std::ofstream(run.csv("B", 3)) << "t,z\n0,0\n0.5,3\n1,6\n";
  const std::string reasons = all_reasons(run.gate(rechecking_all()));
  EXPECT_NE(reasons.find(run.csv("A", 0).string() + " holds 2 samples, results.json records 3"),
            std::string::npos)
      << reasons;
  EXPECT_NE(
      reasons.find(run.csv("B", 3).string() + ":1: the columns are t,z, results.json records t,s"),
      std::string::npos)
      << reasons;
}

TEST(GateRecheck, OnlyTheFileSimverifyWritesIsRead) {
  const SeriesRun run;
  // A link in the file's place (to a copy with the same numbers) and a results.json that
  // names another file: neither is read.
  fs::copy_file(run.csv("A", 0), run.dir / "copy.csv");
  fs::remove(run.csv("A", 0));
  fs::create_symlink(run.dir / "copy.csv", run.csv("A", 0));
  run.edit(
      [](Json& doc) { entry(doc, "B")["points"][0]["measures"]["s"]["file"] = "../copy.csv"; });
  const std::string reasons = all_reasons(run.gate(rechecking_all()));
  EXPECT_NE(reasons.find("its file " + run.csv("A", 0).string() + " is a symbolic link"),
            std::string::npos)
      << reasons;
  EXPECT_NE(reasons.find("results.json names the file \"../copy.csv\", simverify writes "
                         "series/B/0-s.csv"),
            std::string::npos)
      << reasons;
}

TEST(GateRecheck, WhatDecidesNothingIsNotCompared) {
  const SeriesRun run;
  // v = [x, 2x] decides nothing and is not plotted: a component may measure what varies from
  // run to run (its own timing), so a difference there must not block a release. The size of
  // a stored series is compared: the report plots it.
  run.edit([](Json& doc) {
    for (auto& p : entry(doc, "A")["points"]) p["measures"]["v"][1] = 0;
    entry(doc, "B")["points"][2]["measures"]["s"]["samples"] = 2;
  });
  const std::string reasons = all_reasons(run.gate(rechecking_all()));
  EXPECT_EQ(reasons.find("A is marked passed but"), std::string::npos) << reasons;
  EXPECT_NE(reasons.find("B is marked passed but grid point 2 re-evaluated: its measure s: 3 "
                         "samples of [\"s\"] re-evaluated, results.json records"),
            std::string::npos)
      << reasons;
}

// A value read from a series (`max_abs(s)`) rests on the series' CSV, which --series quality
// stores beside results.json: the gate decides it again from the file, without --recheck.
namespace {

// A's x = 2 gives s = 0, 1, 2 and fails max_abs(s) <= 1.5 honestly; x = 1 passes.
constexpr const char* kSeriesPack = R"(requirements:
  - id: A
    title: a series stays small
    level: unit
    component: square
    conditions: {x: [1, 2]}
    quality: {measure: max_abs(s), threshold: "<= 1.5"}
)";

struct StoredSeriesRun : SourcedRun {
  StoredSeriesRun() : SourcedRun(kSeriesPack, running_everything(), fw::SeriesOutput::quality) {}
};

}  // namespace

TEST(GateStoredSeries, AValueEditedWithoutItsSeriesIsDecidedAgainFromTheFile) {
  const StoredSeriesRun run;
  ASSERT_TRUE(fs::is_regular_file(run.dir / "series" / "A" / "1-s.csv"));
  EXPECT_FALSE(run.gate().releasable);
  run.edit([](Json& doc) { forge_a_pass(doc, 1, 1); });
  const auto d = run.gate();
  EXPECT_FALSE(d.releasable);
  const std::string reasons = all_reasons(d);
  EXPECT_NE(reasons.find("A is marked passed but grid point 1's value 1 is not what its measures "
                         "give (2)"),
            std::string::npos)
      << reasons;
}

TEST(GateStoredSeries, TheFileAValueRestsOnMustBeThere) {
  std::string passing = kSeriesPack;
  passing.replace(passing.find("\"<= 1.5\""), 8, "\"<= 5\"");
  const SourcedRun run(passing, {}, fw::SeriesOutput::quality);
  EXPECT_TRUE(run.gate().releasable) << all_reasons(run.gate());
  const fs::path csv = run.dir / "series" / "A" / "0-s.csv";
  fs::remove(csv);
  const auto reason = [&] { return all_reasons(run.gate()); };
  const std::string prefix =
      "A is marked passed but grid point 0's value 1 cannot be decided again: its file " +
      csv.string();
  EXPECT_NE(reason().find(prefix + " is missing"), std::string::npos) << reason();
  // Special files are named, and none is opened (a FIFO would block the gate).
  fs::create_directory(csv);
  EXPECT_NE(reason().find(prefix + " is a folder"), std::string::npos) << reason();
  fs::remove(csv);
  ASSERT_EQ(::mkfifo(csv.c_str(), 0600), 0);
  EXPECT_NE(reason().find(prefix + " is a FIFO"), std::string::npos) << reason();
}

// A `compare:` reading its reference from a CSV: results.json names the file but does not hold
// it, so the gate decides each value again against the reference the file holds.
namespace {

// v = [x, 2x] against the reference [1, 2]: x = 1 is 0 away, x = 2 is 2 away.
constexpr const char* kComparePack = R"(requirements:
  - id: A
    title: v follows the reference
    level: unit
    component: square
    conditions: {x: [1, 2]}
    quality:
      measure: v
      compare: {reference: {file: ref.csv, column: v}, norm: max_abs}
      threshold: "<= 5"
)";

struct CompareRun : SourcedRun {
  explicit CompareRun(const std::string& threshold)
      : SourcedRun(with_threshold(threshold), running_everything(), fw::SeriesOutput::none,
                   {{"ref.csv", "v\n1\n2\n"}}) {}
  static std::string with_threshold(const std::string& threshold) {
    std::string yaml = kComparePack;
    yaml.replace(yaml.find("\"<= 5\""), 6, threshold);
    return yaml;
  }
};

}  // namespace

TEST(GateSources, AReferenceFileChangedSinceTheRunIsNamed) {
  const CompareRun run("\"<= 5\"");
  EXPECT_TRUE(run.gate().releasable) << all_reasons(run.gate());
  std::ofstream(run.dir / "ref.csv") << "v\n1\n3\n";  // x = 1 is now 1 away
  const std::string reasons = all_reasons(run.gate());
  EXPECT_NE(reasons.find("A is marked passed but grid point 0's value 0 is not what its measures "
                         "give against the reference in " +
                         (run.dir / "ref.csv").string() + " (1) (the file changed since the run"),
            std::string::npos)
      << reasons;
}

TEST(GateSources, AValueComparedWithAReferenceFileIsDecidedAgain) {
  const CompareRun run("\"<= 0.5\"");
  EXPECT_FALSE(run.gate().releasable);  // x = 2 is 2 away
  run.edit([](Json& doc) { forge_a_pass(doc, 1, 0); });
  const std::string reasons = all_reasons(run.gate());
  EXPECT_NE(reasons.find("A is marked passed but grid point 1's value 0 is not what its measures "
                         "give against the reference in "),
            std::string::npos)
      << reasons;
}

// What an honest run never writes is not a way around deciding a value again.
TEST(GateStoredSeries, AMeasureCutFromAPointIsNotAWayAround) {
  const SourcedRun run(pack_failing_a(), running_everything());
  run.edit([](Json& doc) {
    forge_a_pass(doc, 1, 2);
    entry(doc, "A")["points"][1]["measures"].erase("y");
    entry(doc, "B")["status"] = "passed";  // B passed honestly; the summary counts it
    doc["summary"]["passed"] = 2;
  });
  const std::string reasons = all_reasons(run.gate());
  EXPECT_NE(reasons.find("A is marked passed but grid point 1's value 2 cannot be decided again: "
                         "results.json records no measure y for it"),
            std::string::npos)
      << reasons;
}

TEST(GateStoredSeries, ASeriesSaidNotStoredWhileItsFileIsThere) {
  const StoredSeriesRun run;
  run.edit([](Json& doc) {
    forge_a_pass(doc, 1, 1);
    entry(doc, "A")["points"][1]["measures"]["s"]["file"] = nullptr;
  });
  const std::string reasons = all_reasons(run.gate());
  EXPECT_NE(reasons.find("A is marked passed but grid point 1's value 1 cannot be decided again: "
                         "results.json says its series s was not stored, but " +
                         (run.dir / "series" / "A" / "1-s.csv").string() + " is there"),
            std::string::npos)
      << reasons;
}

TEST(GateSources, AReferenceThatNoLongerFitsIsNotAWayAround) {
  const CompareRun run("\"<= 5\"");
  std::ofstream(run.dir / "ref.csv") << "v\n1\n2\n3\n";  // v has 2 elements: no distance
  const std::string reasons = all_reasons(run.gate());
  EXPECT_NE(reasons.find("A is marked passed but grid point 0's value 0 cannot be decided against "
                         "the reference in " +
                         (run.dir / "ref.csv").string() + ": its measures give no value ("),
            std::string::npos)
      << reasons;
}
