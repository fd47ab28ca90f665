// The console reporter: --verbose shows each point's condition, measures and quality; the
// progress bar clears each line it redraws; colour only when asked for.
#include <simverify/framework/loader.hpp>
#include <simverify/framework/reporters/reporters.hpp>
#include <simverify/framework/runner.hpp>

#include "fake_components.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

using namespace simverify::framework;

namespace {

std::string console_of(ConsoleOptions options) {
  const auto registry = fakes::fake_registry();
  LoadResult loaded;
  parse_requirements(R"yaml(requirements:
  - id: SQUARES
    level: unit
    component: square
    conditions: {x: [1, 3], k: 1}
    quality: {measure: y, threshold: "<= 4"}
)yaml",
                     "console.yaml", registry, loaded);
  EXPECT_TRUE(loaded.ok());
  std::ostringstream out;
  ListenerList listeners;
  listeners.add(make_console_reporter(out, options));
  RunOptions o;
  o.isolation = Isolation::none;
  Runner(registry, o).run(loaded.requirements, listeners);
  return out.str();
}

}  // namespace

TEST(Console, VerboseShowsConditionMeasuresAndQualityPerPoint) {
  const std::string text = console_of({.verbose = true});
  // square: y = k x^2, v = [x, 2x], s a series; x = 3 gives 9 > 4.
  EXPECT_NE(text.find("SQUARES point 0 [x=1]: y=1, v=[2 values], s=[series, 3 samples]; "
                      "quality 1 ok"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("SQUARES point 1 [x=3]: y=9, v=[2 values], s=[series, 3 samples]; "
                      "quality 9 fails"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("\033["), std::string::npos) << "no escape codes without a terminal";
}

TEST(Console, ProgressLinesAreClearedToTheirEndAndColourIsOptIn) {
  const std::string text = console_of({.progress_bar = true, .colour = true});
  // Every redraw starts with carriage return + erase-to-end, so "ETA 10s" followed by
  // "ETA 9s" never shows "ETA 9ss".
  std::size_t bars = 0;
  for (auto at = text.find(" points, ETA "); at != std::string::npos;
       at = text.find(" points, ETA ", at + 1)) {
    ++bars;
    const auto start = text.rfind('\r', at);
    ASSERT_NE(start, std::string::npos) << text;
    EXPECT_EQ(text.substr(start, 4), "\r\033[K") << text;
  }
  EXPECT_GE(bars, 2U);
  EXPECT_NE(text.find("[\033[31m FAIL\033[0m] SQUARES"), std::string::npos) << text;
  EXPECT_NE(text.find("verdict: \033[31mNOT RELEASABLE\033[0m"), std::string::npos) << text;
}
