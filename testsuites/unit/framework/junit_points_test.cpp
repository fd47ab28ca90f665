// junit.xml with a testcase per grid point (`run --junit-points`): one per evaluated point,
// named by its condition, failing where the point misses the threshold.
#include <simverify/framework/loader.hpp>
#include <simverify/framework/reporters/reporters.hpp>
#include <simverify/framework/runner.hpp>

#include "fake_components.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

using namespace simverify::framework;
namespace fs = std::filesystem;

TEST(JunitPoints, OneTestcasePerGridPointBesideTheRequirements) {
  const auto registry = fakes::fake_registry();
  LoadResult loaded;
  parse_requirements(R"yaml(requirements:
  - id: SQUARES
    level: unit
    component: square
    conditions: {x: [1, 3], k: 1}
    quality: {measure: y, threshold: "<= 4"}
)yaml",
                     "points.yaml", registry, loaded);
  ASSERT_TRUE(loaded.ok());
  const fs::path file = fs::temp_directory_path() / ("junit-points-" + std::to_string(::getpid()));
  ListenerList listeners;
  listeners.add(make_junit_reporter(file, /*per_point=*/true));
  RunOptions o;
  o.isolation = Isolation::none;
  Runner(registry, o).run(loaded.requirements, listeners);
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(file);
  const std::string xml = text.str();
  // The requirement's testcase, then two point testcases (x = 1 passes, x = 3 gives 9 > 4).
  EXPECT_NE(xml.find("<testsuites name=\"simverify\" tests=\"3\" failures=\"2\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"unit.points\" tests=\"2\" failures=\"1\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testcase classname=\"SQUARES\" name=\"point 0: x=1\""), std::string::npos);
  EXPECT_NE(xml.find("<failure message=\"9 violates &lt;= 4\" type=\"threshold\"/>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<system-out>y = 1, threshold &lt;= 4</system-out>"), std::string::npos);
}
