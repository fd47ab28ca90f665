// `simverify run --series quality|all|none`: which time series the JSON reporter stores beside
// results.json, and that the others are still listed (size and columns, "file": null).
#include <simverify/framework/loader.hpp>
#include <simverify/framework/reporters/reporters.hpp>
#include <simverify/framework/runner.hpp>

#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

using namespace simverify::framework;
namespace fs = std::filesystem;

namespace {

ComponentRegistry series_registry() {
  ComponentRegistry r;
  r.add(
      {{"sim", "a scalar, the state trajectory and one output", {"x"}, {"y", "trajectory", "y.*"}},
       [](const Condition& c) {
         const double x = c.number("x");
         Measurement m;
         m.set("y", x);
         m.set("trajectory", TimeSeries{{0.0, 1.0}, {"x1", "x2"}, {{x, x}, {2 * x, 2 * x}}});
         m.set("y.out", TimeSeries{{0.0, 1.0}, {"out"}, {{x, -x}}});
         return m;
       },
       nullptr});
  // As a `command` program: its own curves, no state trajectory.
  r.add({{"program", "a scalar and two curves", {"x"}, {"y", "y.b", "y.a"}},
         [](const Condition& c) {
           const double x = c.number("x");
           Measurement m;
           m.set("y", x);
           m.set("y.b", TimeSeries{{0.0, 1.0}, {"b"}, {{x, x}}});
           m.set("y.a", TimeSeries{{0.0, 1.0}, {"a"}, {{x, -x}}});
           return m;
         },
         nullptr});
  return r;
}

const char* kSeriesYaml = R"yaml(requirements:
  - id: READS-SERIES
    level: unit
    component: sim
    conditions: {x: [1, 2]}
    quality: {measure: rms(y.out), threshold: "<= 10"}
  - id: READS-SCALAR
    level: unit
    component: sim
    conditions: {x: [3]}
    quality: {measure: y, threshold: "<= 10"}
)yaml";

nlohmann::json run_with(SeriesOutput series, const fs::path& dir, int jobs = 1,
                        const char* yaml = kSeriesYaml) {
  fs::remove_all(dir);
  const auto registry = series_registry();
  LoadResult loaded;
  parse_requirements(yaml, "series.yaml", registry, loaded);
  if (!loaded.ok()) throw std::runtime_error(loaded.errors.front().str());
  ListenerList listeners;
  listeners.add(make_json_reporter(dir, series));
  RunOptions o;
  o.isolation = Isolation::none;
  o.jobs = jobs;
  Runner(registry, o).run(loaded.requirements, listeners);
  std::ifstream in(dir / "results.json");
  return nlohmann::json::parse(in);
}

// The measure entry of point `k` of requirement `id`.
const nlohmann::json& measure(const nlohmann::json& results, const std::string& id, std::size_t k,
                              const std::string& name) {
  for (const auto& r : results["requirements"]) {
    if (r["id"] == id) return r["points"][k]["measures"][name];
  }
  throw std::runtime_error("no requirement " + id);
}

bool stored(const nlohmann::json& results, const fs::path& dir, const std::string& id,
            std::size_t k, const std::string& name) {
  const auto& m = measure(results, id, k, name);
  EXPECT_EQ(m["samples"], 2) << id << " " << name;
  if (m["file"].is_null()) return false;
  EXPECT_TRUE(fs::exists(dir / m["file"].get<std::string>())) << m["file"];
  return true;
}

fs::path scratch(const char* name) {
  return fs::temp_directory_path() / ("simverify-series-" + std::to_string(::getpid())) / name;
}

}  // namespace

TEST(SeriesOutput, QualityStoresTheSeriesTheQualityReadsElseTheTrajectory) {
  const fs::path dir = scratch("quality");
  const auto results = run_with(SeriesOutput::quality, dir);
  for (std::size_t k : {0u, 1u}) {
    EXPECT_TRUE(stored(results, dir, "READS-SERIES", k, "y.out"));
    EXPECT_FALSE(stored(results, dir, "READS-SERIES", k, "trajectory"));
  }
  EXPECT_TRUE(stored(results, dir, "READS-SCALAR", 0, "trajectory"));
  EXPECT_FALSE(stored(results, dir, "READS-SCALAR", 0, "y.out"));
  EXPECT_EQ(measure(results, "READS-SCALAR", 0, "y.out")["columns"], nlohmann::json({"out"}));
  fs::remove_all(dir.parent_path());
}

// A component without a trajectory whose quality reads a number (a program reporting its
// curves): the first series it gave is kept, the one the report plots (plots.py).
TEST(SeriesOutput, QualityStoresTheFirstSeriesOfAComponentWithoutTrajectory) {
  const fs::path dir = scratch("first");
  const auto results = run_with(SeriesOutput::quality, dir, 1, R"yaml(requirements:
  - id: PROGRAM
    level: unit
    component: program
    conditions: {x: [1]}
    quality: {measure: y, threshold: "<= 10"}
)yaml");
  EXPECT_TRUE(stored(results, dir, "PROGRAM", 0, "y.b"));
  EXPECT_FALSE(stored(results, dir, "PROGRAM", 0, "y.a"));
  fs::remove_all(dir.parent_path());
}

TEST(SeriesOutput, AllAndNone) {
  const fs::path all = scratch("all"), none = scratch("none");
  const auto with_all = run_with(SeriesOutput::all, all);
  const auto with_none = run_with(SeriesOutput::none, none);
  for (const char* name : {"y.out", "trajectory"}) {
    EXPECT_TRUE(stored(with_all, all, "READS-SERIES", 1, name));
    EXPECT_TRUE(stored(with_all, all, "READS-SCALAR", 0, name));
    EXPECT_FALSE(stored(with_none, none, "READS-SERIES", 1, name));
    EXPECT_FALSE(stored(with_none, none, "READS-SCALAR", 0, name));
  }
  EXPECT_FALSE(fs::exists(none / "series"));
  fs::remove_all(all.parent_path());
}

// With --jobs 2 the series files are written on two threads (series_writer.hpp): the same
// files with the same text, all written before results.json names them.
TEST(SeriesOutput, MoreJobsWriteTheSameFiles) {
  const fs::path one = scratch("one-job"), two = scratch("two-jobs");
  const auto with_one = run_with(SeriesOutput::all, one, 1);
  const auto with_two = run_with(SeriesOutput::all, two, 2);
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(one / "series")) {
    if (!entry.is_regular_file()) continue;
    const fs::path relative = fs::relative(entry.path(), one);
    std::ifstream a(entry.path()), b(two / relative);
    ASSERT_TRUE(b.good()) << relative;
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(a), {}),
              std::string(std::istreambuf_iterator<char>(b), {}))
        << relative;
    ++files;
  }
  EXPECT_EQ(files, 6U);  // 3 points x (y.out, trajectory)
  // results.json names the same files with the same sizes and columns.
  for (std::size_t r = 0; r < 2; ++r) {
    const auto& a = with_one["requirements"][r]["points"];
    const auto& b = with_two["requirements"][r]["points"];
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) EXPECT_EQ(a[k]["measures"], b[k]["measures"]);
  }
  fs::remove_all(one.parent_path());
}
