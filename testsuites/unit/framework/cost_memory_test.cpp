// The ETA's memory of costs between runs (reporters/cost_memory.hpp): what one run records the
// next finds, wherever its results go; a tampered or special file gives no priors and is never
// replaced.
#include "reporters/cost_memory.hpp"
#include "test_folder.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace simverify::framework {
namespace fs = std::filesystem;

class CostMemoryTest : public ::testing::Test {
 protected:
  const fakes::TestFolder scratch_{"simverify_cost_memory"};  // test_folder.hpp
  const fs::path& folder_ = scratch_.path;

  static Requirement requirement(std::string id, const fs::path& file) {
    Requirement r;
    r.id = std::move(id);
    r.location.file = file.string();
    return r;
  }
  // One run of `requirements` taking `seconds` each over `points` points.
  static void record(const fs::path& memory, const std::vector<Requirement>& requirements,
                     double seconds, std::size_t points) {
    std::vector<RequirementResult> results;
    for (const auto& r : requirements) {
      RequirementResult result;
      result.requirement = &r;
      result.status = Status::passed;
      result.point_count = points;
      result.seconds = seconds;
      results.push_back(result);
    }
    make_cost_recorder(memory)->run_finished(RunSummary{}, results);
  }
};

TEST_F(CostMemoryTest, WhatOneRunMeasuredTheNextFinds) {
  const fs::path memory = folder_ / "cache" / "simverify" / "costs.json";  // created on demand
  const std::vector<Requirement> reqs = {requirement("A", folder_ / "a.yaml"),
                                         requirement("B", folder_ / "a.yaml")};
  EXPECT_TRUE(remembered_costs(memory, reqs).empty());
  record(memory, reqs, 2.0, 4);
  const auto costs = remembered_costs(memory, reqs);
  ASSERT_EQ(costs.size(), 2U);
  EXPECT_DOUBLE_EQ(costs.at("A"), 0.5);
  record(memory, {reqs[0]}, 3.0, 1);  // remeasured: the newest cost counts, B is kept
  EXPECT_DOUBLE_EQ(remembered_costs(memory, reqs).at("A"), 3.0);
  EXPECT_DOUBLE_EQ(remembered_costs(memory, reqs).at("B"), 0.5);
}

TEST_F(CostMemoryTest, TheSameIdInAnotherProjectIsAnotherRequirement) {
  const fs::path memory = folder_ / "costs.json";
  record(memory, {requirement("REQ-1", folder_ / "one" / "r.yaml")}, 1.0, 1);
  EXPECT_TRUE(
      remembered_costs(memory, {{requirement("REQ-1", folder_ / "two" / "r.yaml")}}).empty());
  // The same file reached through another spelling of its path is the same requirement.
  const auto costs =
      remembered_costs(memory, {{requirement("REQ-1", folder_ / "two" / ".." / "one" / "r.yaml")}});
  EXPECT_EQ(costs.size(), 1U);
}

TEST_F(CostMemoryTest, SkippedRequirementsMeasuredNothing) {
  const fs::path memory = folder_ / "costs.json";
  const Requirement r = requirement("A", folder_ / "a.yaml");
  RequirementResult skipped;
  skipped.requirement = &r;
  skipped.status = Status::skipped;
  make_cost_recorder(memory)->run_finished(RunSummary{}, {skipped});
  EXPECT_FALSE(fs::exists(memory));  // nothing measured, nothing written
}

TEST_F(CostMemoryTest, KeepsTheMostRecentlyRunWhenFull) {
  const fs::path memory = folder_ / "costs.json";
  std::vector<Requirement> first;
  for (std::size_t i = 0; i < kMaxRememberedRequirements; ++i) {
    first.push_back(requirement("OLD-" + std::to_string(i), folder_ / "a.yaml"));
  }
  record(memory, first, 1.0, 1);
  const std::vector<Requirement> second = {requirement("NEW", folder_ / "a.yaml")};
  record(memory, second, 1.0, 1);
  EXPECT_EQ(remembered_costs(memory, second).size(), 1U);
  EXPECT_EQ(remembered_costs(memory, first).size(), kMaxRememberedRequirements - 1);
}

TEST_F(CostMemoryTest, ATamperedMemoryGivesNoPriors) {
  const fs::path memory = folder_ / "costs.json";
  const std::vector<Requirement> reqs = {requirement("A", folder_ / "a.yaml")};
  const std::string file = fs::weakly_canonical(folder_ / "a.yaml").string();
  for (const std::string& text :
       {std::string("not json"), std::string(R"({"format": "other", "requirements": []})"),
        R"({"format": "simverify-costs 1", "requirements": [{"file": ")" + file +
            R"(", "id": "A", "run": 1, "seconds_per_point": -5}]})",
        R"({"format": "simverify-costs 1", "requirements": [{"file": ")" + file +
            R"(", "id": "A", "run": "x", "seconds_per_point": 1}]})",
        // a repeated key, which every results reader refuses
        R"({"format": "simverify-costs 1", "requirements": [{"file": ")" + file +
            R"(", "id": "A", "run": 1, "seconds_per_point": 1, "seconds_per_point": 2}]})",
        std::string(100000, '[') + std::string(100000, ']')}) {
    std::ofstream(memory) << text;
    EXPECT_TRUE(remembered_costs(memory, reqs).empty()) << text;
  }
}

// A FIFO would block a reader forever and is not ours to replace.
TEST_F(CostMemoryTest, ASpecialFileIsNeitherReadNorReplaced) {
  const fs::path memory = folder_ / "costs.json";
  ASSERT_EQ(::mkfifo(memory.c_str(), 0600), 0);
  const std::vector<Requirement> reqs = {requirement("A", folder_ / "a.yaml")};
  EXPECT_TRUE(remembered_costs(memory, reqs).empty());
  record(memory, reqs, 1.0, 1);
  EXPECT_EQ(fs::status(memory).type(), fs::file_type::fifo);
}

}  // namespace simverify::framework
