// --shard I/N partitions every grid point into exactly one shard, keeping aggregation groups
// together, and `merge` of the shards' results.json equals an unsharded run (format page).
#include <simverify/framework/loader.hpp>
#include <simverify/framework/reporters/reporters.hpp>
#include <simverify/framework/runner.hpp>

#include "fake_components.hpp"
#include "merge.hpp"
#include "plan.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>

using namespace simverify::framework;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

const char* kYaml = R"yaml(requirements:
  - id: AGG
    level: unit
    component: square
    conditions: {x: {logspace: [-2, 0, 4]}, k: [1, 2, 3, 4, 5]}
    quality: {measure: y, aggregate: {over: [x], statistic: order}, threshold: ">= 1.9"}
  - id: PLAIN
    level: unit
    component: square
    conditions: {x: {linspace: [0, 2, 23]}, k: [1, 0.5]}
    quality: {measure: y, threshold: "<= 3"}
  - id: ERR
    level: unit
    component: thrower
    conditions: {x: [1, 2, -3, 4]}
    quality: {measure: y, threshold: "<= 10"}
  - id: WEIGHTED
    level: unit
    component: square
    conditions: {zip: {x: [1, 2, 3, 4], k: [4, 3, 2, 1]}, seed: [1, 2, 3]}
    quality: {measure: y, aggregate: {over: [x], statistic: weighted_mean, weight: k}, threshold: "<= 11"}
  - id: NEXT
    level: integration
    component: square
    conditions: {x: [1, 2]}
    quality: {measure: y, aggregate: {over: [x], statistic: "quantile(0.5)"}, threshold: "<= 10"}
)yaml";

std::vector<Requirement> load_pack() {
  const auto registry = fakes::fake_registry();
  LoadResult out;
  parse_requirements(kYaml, "shards.yaml", registry, out);
  if (!out.ok()) throw std::runtime_error(out.errors.front().str());
  return std::move(out.requirements);
}

// This process's folder for the shard runs, removed when the test program ends.
const fs::path& test_root() {
  struct Root {
    fs::path path =
        fs::temp_directory_path() / ("simverify-shard-test-" + std::to_string(::getpid()));
    Root() = default;
    Root(const Root&) = delete;
    Root& operator=(const Root&) = delete;
    ~Root() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  };
  static const Root root;
  return root.path;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = test_root() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void run_into(const fs::path& dir, int index, int count, FailFast policy) {
  const auto registry = fakes::fake_registry();
  const auto requirements = load_pack();
  RunOptions o;
  o.jobs = 2;
  o.shard_index = index;
  o.shard_count = count;
  o.fail_fast = policy;
  ListenerList listeners;
  listeners.add(make_json_reporter(dir));
  Runner(registry, o).run(requirements, listeners);
}

Json read(const fs::path& dir) {
  std::ifstream in(dir / "results.json");
  return Json::parse(in);
}

// Timings, start times, job counts and shard provenance differ by design; everything else
// must not.
Json strip(Json j) {
  if (j.is_object()) {
    for (const char* key : {"seconds", "started", "jobs", "shard", "merged_from"}) j.erase(key);
    for (auto& [k, v] : j.items()) v = strip(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = strip(v);
  }
  return j;
}

}  // namespace

TEST(Shards, EveryPointIsInExactlyOneShardAndGroupsStayTogether) {
  const auto requirements = load_pack();
  for (int count : {1, 2, 3, 7}) {
    std::map<std::string, std::multiset<std::size_t>> seen;
    for (int index = 1; index <= count; ++index) {
      RunOptions o;
      o.shard_index = index;
      o.shard_count = count;
      const Plan plan = make_plan(requirements, o);
      for (const auto& step : plan.steps) {
        seen[step.requirement->id].insert(step.points.begin(), step.points.end());
      }
    }
    for (const auto& r : requirements) {
      const auto& points = seen[r.id];
      ASSERT_EQ(points.size(), r.conditions.size()) << r.id << " with " << count << " shards";
      for (std::size_t i = 0; i < r.conditions.size(); ++i) EXPECT_EQ(points.count(i), 1u);
    }
  }
  // AGG: k varies fastest (last axis), so a k group is {i : i % 5 == k}; it shares one shard.
  const auto& agg = requirements.front();
  for (std::size_t i = 0; i < agg.conditions.size(); ++i) {
    EXPECT_EQ(shard_of(agg, i, 3), shard_of(agg, i % 5, 3));
  }
}

TEST(Shards, MergeOfShardsEqualsTheUnshardedRun) {
  for (FailFast policy : {FailFast::level, FailFast::none}) {
    const fs::path whole = fresh_dir("whole");
    run_into(whole, 1, 1, policy);
    std::vector<fs::path> parts;
    for (int i = 1; i <= 3; ++i) {
      parts.push_back(fresh_dir("part" + std::to_string(i)));
      run_into(parts.back(), i, 3, policy);
    }
    const fs::path merged = fresh_dir("merged");
    const MergeSummary s = merge_results(parts, merged);
    EXPECT_FALSE(s.releasable);
    const Json expected = strip(read(whole));
    const Json actual = strip(read(merged));
    EXPECT_EQ(actual, expected) << "merged:\n"
                                << actual.dump(1) << "\nunsharded:\n"
                                << expected.dump(1);
    EXPECT_EQ(read(parts[1])["summary"]["shard"], "2/3");
  }
}

TEST(Shards, MergeRejectsMissingRepeatedAndForeignShards) {
  std::vector<fs::path> parts;
  for (int i = 1; i <= 3; ++i) {
    parts.push_back(fresh_dir("bad" + std::to_string(i)));
    run_into(parts.back(), i, 3, FailFast::none);
  }
  const fs::path out = fresh_dir("bad-out");
  EXPECT_THROW(
      {
        try {
          (void)merge_results({parts[0], parts[2]}, out);
        } catch (const MergeError& e) {
          EXPECT_NE(std::string(e.what()).find("missing shard(s): 2/3"), std::string::npos);
          throw;
        }
      },
      MergeError);
  EXPECT_THROW((void)merge_results({parts[0], parts[1], parts[1]}, out), MergeError);
  {
    std::ofstream foreign(parts[2] / "results.json");
    foreign << R"({"format": "other/2", "requirements": []})";
  }
  EXPECT_THROW((void)merge_results(parts, out), MergeError);
  EXPECT_FALSE(fs::exists(out / "results.json")) << "nothing half-written";
}
