// `simverify diff`: status changes, regressions, margins and point matching between two runs.
#include "diff.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

using simverify::framework::diff_results;
using simverify::framework::RequirementChange;
using simverify::framework::ResultsDiff;
using Kind = simverify::framework::RequirementChange::Kind;

namespace {

std::string diff_results(const std::string& requirements, const std::string& summary = "{}") {
  return R"({"format": "simverify.results/1", "summary": )" + summary + R"(, "requirements": [)" +
         requirements + "]}";
}

// A requirement with threshold "<= 1" judged per point; `points` as JSON objects.
std::string diff_requirement(const std::string& id, const std::string& status, double worst,
                             const std::string& points = "[]",
                             const std::string& threshold = "<= 1") {
  return R"({"id": ")" + id + R"(", "title": "T )" + id + R"(", "level": "unit", "status": ")" +
         status + R"(", "threshold": ")" + threshold + R"(", "worst": )" + std::to_string(worst) +
         R"(, "points": )" + points + "}";
}

std::string point(int index, double h, double quality) {
  return R"({"index": )" + std::to_string(index) + R"(, "condition": {"h": )" + std::to_string(h) +
         R"(}, "value": )" + std::to_string(quality) + R"(, "quality": )" +
         std::to_string(quality) + R"(, "passed": )" + (quality <= 1 ? "true" : "false") + "}";
}

const RequirementChange& find(const ResultsDiff& d, const std::string& id) {
  for (const auto& r : d.requirements) {
    if (r.id == id) return r;
  }
  throw std::logic_error("no requirement " + id);
}

}  // namespace

TEST(Diff, ClassifiesStatusChangesAndPutsRegressionsFirst) {
  const std::string base = diff_results(
      diff_requirement("A", "passed", 0.5) + "," + diff_requirement("B", "failed", 2.0) + "," +
      diff_requirement("C", "passed", 0.1) + "," + diff_requirement("D", "passed", 0.2) + "," +
      diff_requirement("E", "failed", 3.0) + "," + diff_requirement("GONE", "passed", 0.1));
  const std::string now = diff_results(
      diff_requirement("A", "failed", 1.5) + "," + diff_requirement("B", "passed", 0.5) + "," +
      diff_requirement("C", "error", 0.1) + "," + diff_requirement("D", "skipped", 0.2) + "," +
      diff_requirement("E", "failed", 3.0) + "," + diff_requirement("NEW", "passed", 0.1));
  const ResultsDiff d = diff_results(base, "base.json", now, "new.json", false);
  EXPECT_TRUE(d.regressed());
  EXPECT_EQ(find(d, "A").kind, Kind::regressed);
  EXPECT_EQ(find(d, "B").kind, Kind::fixed);
  EXPECT_EQ(find(d, "C").kind, Kind::regressed);  // passed -> error is a regression too
  EXPECT_EQ(find(d, "D").kind, Kind::changed);    // skipped is not a regression
  EXPECT_EQ(find(d, "E").kind, Kind::same);
  EXPECT_EQ(find(d, "GONE").kind, Kind::removed);
  EXPECT_EQ(find(d, "NEW").kind, Kind::added);
  EXPECT_EQ(d.count(Kind::regressed), 2U);
  ASSERT_EQ(d.requirements.size(), 7U);
  EXPECT_EQ(d.requirements[0].kind, Kind::regressed);
  EXPECT_EQ(d.requirements[1].kind, Kind::regressed);
  // Of the two regressions the one whose margin fell more comes first: A 0.5 -> -0.5 (-1.0),
  // C 0.9 -> 0.9 (0).
  EXPECT_EQ(d.requirements[0].id, "A");
}

TEST(Diff, MarginsFollowEachRunsThreshold) {
  const ResultsDiff d =
      diff_results(diff_results(diff_requirement("A", "passed", 0.25)), "b",
                   diff_results(diff_requirement("A", "passed", 0.75, "[]", "<= 2")), "n", false);
  const auto& a = find(d, "A");
  // "<= 1" with worst 0.25: margin 0.75; "<= 2" with worst 0.75: margin 1.25 (Def 5.17 sides).
  EXPECT_DOUBLE_EQ(*a.margin.base, 0.75);
  EXPECT_DOUBLE_EQ(*a.margin.now, 1.25);
  EXPECT_DOUBLE_EQ(*a.margin.delta(), 0.5);
  EXPECT_DOUBLE_EQ(*a.worst.delta(), 0.5);
  EXPECT_FALSE(d.regressed());
  EXPECT_NE(d.to_text(false).find("threshold <= 1 -> <= 2"), std::string::npos);
}

TEST(Diff, AtLeastThresholdMarginIsQualityMinusBound) {
  const ResultsDiff d =
      diff_results(diff_results(diff_requirement("O", "passed", 4.0, "[]", ">= 3.9")), "b",
                   diff_results(diff_requirement("O", "failed", 3.5, "[]", ">= 3.9")), "n", false);
  EXPECT_NEAR(*find(d, "O").margin.base, 0.1, 1e-12);
  EXPECT_NEAR(*find(d, "O").margin.now, -0.4, 1e-12);
}

TEST(Diff, PointsAreMatchedByConditionNotIndex) {
  // The new grid has an extra point in front: indices move, conditions stay.
  const std::string base = diff_results(diff_requirement(
      "A", "passed", 0.5, "[" + point(0, 0.1, 0.5) + "," + point(1, 0.2, 0.25) + "]"));
  const std::string now = diff_results(diff_requirement(
      "A", "failed", 1.5,
      "[" + point(0, 0.05, 0.1) + "," + point(1, 0.1, 0.5) + "," + point(2, 0.2, 1.5) + "]"));
  const ResultsDiff d = diff_results(base, "b", now, "n", true);
  const auto& a = find(d, "A");
  ASSERT_EQ(a.points_changed, 2U);  // h=0.2 got worse, h=0.05 is new; h=0.1 is unchanged
  ASSERT_EQ(a.points.size(), 2U);
  // The verdict change comes first.
  EXPECT_NE(a.points[0].condition.find("0.2"), std::string::npos);
  EXPECT_EQ(a.points[0].base_index, 1U);
  EXPECT_EQ(a.points[0].new_index, 2U);
  EXPECT_EQ(a.points[0].base_passed, true);
  EXPECT_EQ(a.points[0].new_passed, false);
  EXPECT_DOUBLE_EQ(*a.points[0].margin.delta(), -1.25);
  EXPECT_FALSE(a.points[1].base_index.has_value());
  // Without --points the count stays, the list does not.
  const ResultsDiff brief = diff_results(base, "b", now, "n", false);
  EXPECT_EQ(find(brief, "A").points_changed, 2U);
  EXPECT_TRUE(find(brief, "A").points.empty());
}

TEST(Diff, JsonCarriesRunsCountsAndChanges) {
  const ResultsDiff d =
      diff_results(diff_results(diff_requirement("A", "passed", 0.5),
                                R"({"commit": "abc123", "started": "2026-11-25T10:00:00Z"})"),
                   "b", diff_results(diff_requirement("A", "failed", 1.5)), "n", false);
  const auto doc = nlohmann::json::parse(d.to_json());
  EXPECT_EQ(doc["format"], "simverify.diff/1");
  EXPECT_EQ(doc["base"]["commit"], "abc123");
  EXPECT_EQ(doc["base"]["started"], "2026-11-25T10:00:00Z");
  EXPECT_TRUE(doc["new"]["commit"].is_null());
  EXPECT_TRUE(doc["regressed"].get<bool>());
  EXPECT_EQ(doc["counts"]["regressed"], 1);
  EXPECT_EQ(doc["requirements"][0]["change"], "regressed");
  EXPECT_DOUBLE_EQ(doc["requirements"][0]["margin"]["delta"].get<double>(), -1.0);
  EXPECT_NE(d.to_text(false).find("base: b (abc123, 2026-11-25T10:00:00Z)"), std::string::npos);
}

TEST(Diff, MalformedInputNamesTheFile) {
  const std::string ok = diff_results(diff_requirement("A", "passed", 0.5));
  try {
    (void)diff_results(ok, "base/results.json", "{\n \"format\": ", "new/results.json", false);
    FAIL() << "broken JSON accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("new/results.json:2:"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)diff_results(R"({"format": "other"})", "b", ok, "n", false),
               std::runtime_error);
  EXPECT_THROW(
      (void)diff_results(diff_results(R"({"id": 3, "status": "passed"})"), "b", ok, "n", false),
      std::runtime_error);
  EXPECT_THROW(
      (void)diff_results(diff_results(diff_requirement("A", "done", 0.5)), "b", ok, "n", false),
      std::runtime_error);
  EXPECT_THROW((void)diff_results(diff_results(diff_requirement("A", "passed", 0.5) + "," +
                                               diff_requirement("A", "passed", 0.5)),
                                  "b", ok, "n", false),
               std::runtime_error);
}

// The JSON form never throws on text that is not UTF-8 (the results reader refuses such files,
// but a diff can be built by a caller from anything): it is written as U+FFFD, as every writer
// does.
TEST(Diff, JsonFormHoldsTextThatIsNotUtf8) {
  ResultsDiff d;
  RequirementChange r;
  r.kind = Kind::added;
  r.id = "R\xff";
  r.title = "caf\xe9";
  r.new_status = "failed";
  d.requirements.push_back(r);
  std::string text;
  ASSERT_NO_THROW(text = d.to_json());
  const auto doc = nlohmann::json::parse(text);
  EXPECT_EQ(doc["requirements"][0]["id"], "R\xef\xbf\xbd");
  EXPECT_EQ(doc["requirements"][0]["title"], "caf\xef\xbf\xbd");
}
