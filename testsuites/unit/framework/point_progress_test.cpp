// Progress inside a point (point_progress.hpp): a component's fraction reaches the listeners
// while the point runs, through the worker's shared memory (process isolation) and from the
// pool threads (isolation none); spans nest (Monte Carlo run i of n holds a simulation); the
// console bar counts the part under way.
#include <simverify/framework/loader.hpp>
#include <simverify/framework/point_progress.hpp>
#include <simverify/framework/reporters/reporters.hpp>
#include <simverify/framework/runner.hpp>

#include "point_progress.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

using namespace simverify::framework;
namespace fs = std::filesystem;

TEST(PointProgress, SpansMapReportsIntoTheirShareAndNest) {
  std::atomic<double> slot{-1.0};
  detail::attach_point_progress(&slot);
  report_point_progress(0.5);
  EXPECT_DOUBLE_EQ(slot.load(), 0.5);
  {
    const PointProgressSpan run(0.25, 0.5);  // run 2 of 4
    report_point_progress(0.5);
    EXPECT_DOUBLE_EQ(slot.load(), 0.375);
    {
      // Second half of run 2: [0.375, 0.5]; its midpoint is 0.4375.
      const PointProgressSpan inner(0.5, 1.0);
      report_point_progress(0.5);
      EXPECT_DOUBLE_EQ(slot.load(), 0.4375);
    }
    report_point_progress(2.0);  // clamped to the span's end
    EXPECT_DOUBLE_EQ(slot.load(), 0.5);
    report_point_progress(std::nan(""));  // ignored
    EXPECT_DOUBLE_EQ(slot.load(), 0.5);
  }
  report_point_progress(1.0);
  EXPECT_DOUBLE_EQ(slot.load(), 1.0);
  detail::attach_point_progress(nullptr);
  report_point_progress(0.25);  // nobody reads: a no-op
  EXPECT_DOUBLE_EQ(slot.load(), 1.0);
}

namespace {

// A point that reports half its work done, then waits until the runner has passed that on
// (the listener creates `gate`), so the report is seen while the point is still running.
struct HalfWay {
  fs::path gate;
  Measurement operator()(const Condition& /*c*/) const {
    report_point_progress(0.5);
    // Bounded wait (never a test verdict): 60 s at most, then the point ends and the test
    // fails on the listener's record instead of hanging.
    for (int i = 0; i < 60000 && !fs::exists(gate); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    Measurement m;
    m.set("y", fs::exists(gate) ? 1.0 : 0.0);
    return m;
  }
};

class Record final : public RunListener {
 public:
  explicit Record(fs::path gate) : gate_(std::move(gate)) {}
  void points_in_progress(const Requirement& /*r*/, double done) override {
    max_done = std::max(max_done, done);
    if (done >= 0.5) std::ofstream(gate_) << "seen\n";
  }
  double max_done = 0.0;

 private:
  fs::path gate_;
};

double progress_seen(Isolation isolation, int jobs) {
  const fs::path gate = fs::temp_directory_path() /
                        ("simverify-progress-" + std::to_string(::getpid()) + "-" +
                         std::to_string(static_cast<int>(isolation)) + std::to_string(jobs));
  fs::remove(gate);
  ComponentRegistry registry;
  registry.add(
      {{"halfway", "reports 0.5, waits to be seen", {"x"}, {"y"}}, HalfWay{gate}, nullptr});
  LoadResult loaded;
  parse_requirements(R"yaml(requirements:
  - id: LONG
    level: unit
    component: halfway
    conditions: {x: [1, 2]}
    quality: {measure: y, threshold: ">= 1"}
)yaml",
                     "progress.yaml", registry, loaded);
  EXPECT_TRUE(loaded.ok());
  Record record(gate);
  RunOptions o;
  o.isolation = isolation;
  o.jobs = jobs;
  const RunSummary summary = Runner(registry, o).run(loaded.requirements, record);
  EXPECT_EQ(summary.passed, 1) << "each point ends after its progress was seen";
  fs::remove(gate);
  return record.max_done;
}

}  // namespace

TEST(PointProgress, ReachesTheListenersFromWorkerProcesses) {
  EXPECT_GE(progress_seen(Isolation::process, 1), 0.5);
}

TEST(PointProgress, ReachesTheListenersFromPoolThreads) {
  EXPECT_GE(progress_seen(Isolation::none, 2), 0.5);
}

TEST(PointProgress, ConsoleBarCountsThePartUnderWay) {
  std::ostringstream out;
  auto console = make_console_reporter(out, {.progress_bar = true});
  RunInfo info;
  info.requirements = 1;
  info.points = 4;
  console->run_started(info);
  Requirement r;
  r.id = "LONG";
  console->points_in_progress(r, 1.5);
  // 1.5 of 4 points: 11 of 30 cells filled.
  EXPECT_NE(out.str().find("\r\033[K[" + std::string(11, '#') + std::string(19, '.') +
                           "] 0/4 points (+1.50 under way), ETA "),
            std::string::npos)
      << out.str();
}
