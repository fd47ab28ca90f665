// The runner (Alg 9-11) against deterministic fake components: verdicts, errors of every kind
// (throw, NaN, crash, abort, timeout), fail-fast policies, depends_on, determinism across jobs
// and isolations, and interruption.
#include <simverify/core/interrupt.hpp>
#include <simverify/framework/loader.hpp>
#include <simverify/framework/runner.hpp>

#include "fake_components.hpp"
#include "test_folder.hpp"

#include <gtest/gtest.h>

#include <thread>

using namespace simverify::framework;

namespace {

struct Recorder final : RunListener {
  std::vector<std::string> events;
  std::vector<RequirementResult> finished;
  std::vector<PointResult> points;
  RunSummary summary;
  void level_started(Level level, std::size_t) override {
    events.push_back(std::string("level ") + to_string(level));
  }
  void requirement_started(const Requirement& r, std::size_t) override {
    events.push_back("start " + r.id);
  }
  void point_finished(const Requirement& r, const PointResult& p) override {
    events.push_back(r.id + " point " + std::to_string(p.index));
    points.push_back(p);
  }
  void requirement_finished(const RequirementResult& result) override {
    finished.push_back(result);
  }
  void run_finished(const RunSummary& s, const std::vector<RequirementResult>&) override {
    summary = s;
  }
  const RequirementResult& result(const std::string& id) const {
    for (const auto& r : finished) {
      if (r.requirement->id == id) return r;
    }
    throw std::runtime_error("no result for " + id);
  }
};

std::vector<Requirement> load_requirements(const std::string& yaml) {
  static const ComponentRegistry registry = fakes::fake_registry();
  LoadResult out;
  parse_requirements(yaml, "runner.yaml", registry, out);
  if (!out.ok()) throw std::runtime_error(out.errors.front().str());
  return std::move(out.requirements);
}

struct Run {
  std::vector<Requirement> requirements;
  Recorder recorder;
};

std::unique_ptr<Run> run(const std::string& yaml, RunOptions options = {}) {
  static const ComponentRegistry registry = fakes::fake_registry();
  auto r = std::make_unique<Run>();
  r->requirements = load_requirements(yaml);
  options.keep_points = true;
  if (options.jobs == 0) options.jobs = 2;
  Runner(registry, options).run(r->requirements, r->recorder);
  return r;
}

std::string req(const std::string& id, const std::string& level, const std::string& component,
                const std::string& conditions, const std::string& quality,
                const std::string& extra = "") {
  return "  - id: " + id + "\n    level: " + level + "\n    component: " + component +
         "\n    conditions: " + conditions + "\n    quality: " + quality + "\n" + extra;
}

}  // namespace

TEST(Runner, PassesAndFailsByTheThresholdAndNamesTheWorstPoint) {
  auto r = run(
      "requirements:\n" +
      req("PASS", "unit", "square", "{x: [1, 2]}", "{measure: y, threshold: \"<= 4\"}") +
      req("FAIL", "unit", "square", "{x: [1, 3, 2], k: 1}", "{measure: y, threshold: \"<= 4\"}"));
  const auto& pass = r->recorder.result("PASS");
  EXPECT_EQ(pass.status, Status::passed);
  EXPECT_EQ(pass.worst, 4.0);  // closest to the bound
  const auto& fail = r->recorder.result("FAIL");
  EXPECT_EQ(fail.status, Status::failed);
  EXPECT_EQ(fail.worst, 9.0);
  EXPECT_EQ(fail.worst_point, 1u);
  EXPECT_NE(fail.reason.find("x=3"), std::string::npos) << fail.reason;
  EXPECT_EQ(fail.reason.find("k="), std::string::npos) << "constant axes add noise";
  EXPECT_FALSE(r->recorder.summary.releasable);
  EXPECT_TRUE(r->recorder.summary.complete);
}

TEST(Runner, ReportsPointsInGridOrderWithEveryIsolationAndJobCount) {
  const std::string yaml =
      "requirements:\n" + req("ORDER", "unit", "square", "{x: {linspace: [0, 1, 37]}, k: [1, 2]}",
                              "{measure: y, threshold: \"<= 1.5\"}");
  std::vector<std::vector<double>> values;
  for (auto isolation : {Isolation::process, Isolation::none}) {
    for (int jobs : {1, 2, 3}) {
      RunOptions o;
      o.jobs = jobs;
      o.isolation = isolation;
      auto r = run(yaml, o);
      const auto& result = r->recorder.result("ORDER");
      ASSERT_EQ(result.points.size(), 74u);
      std::vector<double> v;
      for (std::size_t i = 0; i < result.points.size(); ++i) {
        EXPECT_EQ(result.points[i].index, i);
        v.push_back(*result.points[i].value);
      }
      values.push_back(v);
      EXPECT_EQ(result.status, Status::failed);
      EXPECT_EQ(result.worst, 2.0);
    }
  }
  for (const auto& v : values) EXPECT_EQ(v, values.front());
}

TEST(Runner, AThrowingComponentIsAnErrorAndTheOtherPointsStillRun) {
  auto r = run("requirements:\n" + req("THROW", "unit", "thrower", "{x: [1, -1, 2]}",
                                       "{measure: y, threshold: \"<= 10\"}"));
  const auto& result = r->recorder.result("THROW");
  EXPECT_EQ(result.status, Status::error);
  EXPECT_NE(result.reason.find("negative x is not allowed"), std::string::npos) << result.reason;
  EXPECT_NE(result.reason.find("x=-1"), std::string::npos) << result.reason;
  ASSERT_EQ(result.points.size(), 3u);
  EXPECT_TRUE(result.points[0].passed);
  EXPECT_TRUE(result.points[2].passed);
}

TEST(Runner, NaNIsAFailureWithAnError) {
  auto r = run("requirements:\n" +
               req("NAN", "unit", "nan", "{x: [1, 2, 3]}", "{measure: y, threshold: \">= 0\"}"));
  const auto& result = r->recorder.result("NAN");
  EXPECT_EQ(result.status, Status::error);
  EXPECT_NE(result.reason.find("NaN"), std::string::npos);
  EXPECT_FALSE(result.points[1].passed);
}

TEST(Runner, SegfaultAndAbortBecomeErrorsOfThatPointOnly) {
  RunOptions o;
  o.jobs = 2;
  auto r = run("requirements:\n" + req("CRASH", "unit", "crasher", "{x: {range: [1, 8, 1]}}",
                                       "{measure: y, threshold: \"<= 100\"}"),
               o);
  const auto& result = r->recorder.result("CRASH");
  EXPECT_EQ(result.status, Status::error);
  ASSERT_EQ(result.points.size(), 8u);
  for (const auto& p : result.points) {
    const double x = static_cast<double>(p.index + 1);
    if (x == 3) {
      ASSERT_TRUE(p.error);
      EXPECT_NE(p.error->find("SIGSEGV"), std::string::npos) << *p.error;
    } else if (x == 5) {
      ASSERT_TRUE(p.error);
      EXPECT_NE(p.error->find("SIGABRT"), std::string::npos) << *p.error;
    } else {
      EXPECT_FALSE(p.error) << *p.error;
      EXPECT_EQ(p.value, x);
    }
  }
  EXPECT_TRUE(r->recorder.summary.complete);
}

// Crashes deep inside a large grid, where each worker has a second chunk waiting in its pipe:
// only the crashing points are errors, every other point is evaluated exactly once, in order.
TEST(Runner, CrashesInsideLargeGridsLoseNoOtherPoint) {
  for (const int jobs : {1, 2}) {
    RunOptions o;
    o.jobs = jobs;
    auto r =
        run("requirements:\n" + req("CRASH-DEEP", "unit", "crash_at",
                                    "{x: {range: [0, 2999, 1]}, segv_at: [1234], abort_at: [2900]}",
                                    "{measure: y, threshold: \"<= 1e9\"}"),
            o);
    const auto& result = r->recorder.result("CRASH-DEEP");
    ASSERT_EQ(result.points.size(), 3000u);
    for (std::size_t k = 0; k < result.points.size(); ++k) {
      const auto& p = result.points[k];
      EXPECT_EQ(p.index, k);
      if (k == 1234 || k == 2900) {
        ASSERT_TRUE(p.error) << k;
        EXPECT_NE(p.error->find(k == 1234 ? "SIGSEGV" : "SIGABRT"), std::string::npos) << *p.error;
      } else {
        ASSERT_FALSE(p.error) << k << ": " << *p.error;
        EXPECT_EQ(p.value, static_cast<double>(k));
      }
    }
    EXPECT_TRUE(r->recorder.summary.complete);
  }
}

TEST(Runner, APointPastTheTimeoutIsKilledAndRecorded) {
  RunOptions o;
  o.jobs = 2;
  o.timeout_seconds = 0.3;
  // The 30-s point's error says it was killed at the timeout (had the runner waited for it,
  // it would have passed); no wall-clock bound, which a loaded machine could break.
  auto r = run("requirements:\n" + req("SLOW", "unit", "sleeper", "{seconds: [0, 30, 0.01, 0]}",
                                       "{measure: y, threshold: \"<= 100\"}"),
               o);
  const auto& result = r->recorder.result("SLOW");
  EXPECT_EQ(result.status, Status::error);
  ASSERT_EQ(result.points.size(), 4u);
  ASSERT_TRUE(result.points[1].error);
  EXPECT_NE(result.points[1].error->find("timed out after 0.3 s"), std::string::npos);
  EXPECT_FALSE(result.points[2].error);
  EXPECT_EQ(result.points[2].value, 0.01);
}

TEST(Runner, FailFastLevelSkipsTheNextLevel) {
  const std::string yaml =
      "requirements:\n" +
      req("U-FAIL", "unit", "square", "{x: 3}", "{measure: y, threshold: \"<= 1\"}") +
      req("U-PASS", "unit", "square", "{x: 1}", "{measure: y, threshold: \"<= 1\"}") +
      req("I-ONE", "integration", "square", "{x: 1}", "{measure: y, threshold: \"<= 1\"}");
  auto level = run(yaml);
  EXPECT_EQ(level->recorder.result("U-PASS").status, Status::passed);  // the level runs fully
  EXPECT_EQ(level->recorder.result("I-ONE").status, Status::skipped);
  EXPECT_EQ(level->recorder.result("I-ONE").reason,
            "not run: level unit did not pass (fail-fast=level)");
  RunOptions first;
  first.fail_fast = FailFast::first;
  auto f = run(yaml, first);
  EXPECT_EQ(f->recorder.result("U-PASS").status, Status::skipped);
  EXPECT_NE(f->recorder.result("U-PASS").reason.find("fail-fast=first"), std::string::npos);
  RunOptions none;
  none.fail_fast = FailFast::none;
  auto n = run(yaml, none);
  EXPECT_EQ(n->recorder.result("I-ONE").status, Status::passed);
  EXPECT_FALSE(n->recorder.summary.releasable);
}

TEST(Runner, DependenciesRunFirstAndBlockWhenTheyFail) {
  const std::string yaml =
      "requirements:\n" +
      req("LATE", "unit", "square", "{x: 1}", "{measure: y, threshold: \"<= 1\"}",
          "    depends_on: [EARLY]\n") +
      req("EARLY", "unit", "square", "{x: 2}", "{measure: y, threshold: \"<= 1\"}");
  auto r = run(yaml);
  ASSERT_EQ(r->recorder.finished.size(), 2u);
  EXPECT_EQ(r->recorder.finished[0].requirement->id, "EARLY");
  EXPECT_EQ(r->recorder.result("LATE").status, Status::skipped);
  EXPECT_EQ(r->recorder.result("LATE").reason, "blocked by EARLY");
}

TEST(Runner, EventsFireInOrder) {
  auto r =
      run("requirements:\n" +
          req("B", "integration", "square", "{x: [1, 2]}", "{measure: y, threshold: \">= 0\"}") +
          req("A", "unit", "square", "{x: 1}", "{measure: y, threshold: \">= 0\"}"));
  const std::vector<std::string> expected = {"level unit",        "start A", "A point 0",
                                             "level integration", "start B", "B point 0",
                                             "B point 1"};
  EXPECT_EQ(r->recorder.events, expected);
  EXPECT_TRUE(r->recorder.summary.releasable);
}

TEST(Runner, AggregatesGroupsWithTheOrderStatistic) {
  // y = k x^2: the slope of log y against log x is exactly 2 in each k group.
  auto r =
      run("requirements:\n" + req("ORD", "unit", "square", "{x: {logspace: [-2, 0, 4]}, k: [1, 5]}",
                                  "{measure: y, aggregate: {over: [x], statistic: order}, "
                                  "threshold: \">= 2.5\"}"));
  const auto& result = r->recorder.result("ORD");
  ASSERT_EQ(result.groups.size(), 2u);
  for (const auto& g : result.groups) {
    ASSERT_TRUE(g.quality);
    EXPECT_NEAR(*g.quality, 2.0, 1e-12);
    EXPECT_EQ(g.points.size(), 4u);
  }
  EXPECT_EQ(result.status, Status::failed);
  EXPECT_NE(result.reason.find("k=1"), std::string::npos) << result.reason;
  EXPECT_EQ(result.reason.find("x="), std::string::npos) << result.reason;
}

TEST(Runner, ComparesAVectorWithAReference) {
  // v = [x, 2x] for x = 1 against [1.5, 2]: max_abs = 0.5, rms = sqrt(0.125).
  auto r = run("requirements:\n" +
               req("CMP", "unit", "square", "{x: 1}",
                   "{measure: v, compare: {reference: [1.5, 2], norm: rms}, threshold: \"<= 1\"}"));
  const auto& result = r->recorder.result("CMP");
  EXPECT_EQ(result.status, Status::passed);
  EXPECT_NEAR(*result.worst, std::sqrt(0.125), 1e-15);
}

TEST(Runner, StopsCleanlyWhenInterrupted) {
  std::atomic<bool> stop{false};
  RunOptions o;
  o.jobs = 2;
  o.stop = &stop;
  std::jthread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  // Points that sleep a minute: a runner that waited for its workers instead of stopping them
  // would see them pass (and the test would take minutes); judged by what the points did, not
  // by how long the run took.
  auto r = run("requirements:\n" +
                   req("SLOW", "unit", "sleeper", "{seconds: [60, 60, 60, 60]}",
                       "{measure: y, threshold: \">= 0\"}") +
                   req("AFTER", "unit", "square", "{x: 1}", "{measure: y, threshold: \">= 0\"}"),
               o);
  for (const auto& p : r->recorder.points) EXPECT_FALSE(p.passed) << "point " << p.index;
  EXPECT_FALSE(r->recorder.summary.complete);
  EXPECT_FALSE(r->recorder.summary.releasable);
  EXPECT_EQ(r->recorder.result("SLOW").status, Status::skipped);
  EXPECT_NE(r->recorder.result("SLOW").reason.find("interrupted"), std::string::npos);
  EXPECT_EQ(r->recorder.result("AFTER").reason, "not run: interrupted");
}

TEST(Runner, AnInProcessPointThatDoesNotEndIsAbandonedAfterTheStop) {
  // --isolation none: code in this process cannot be killed. Points that sleep an hour (an FMU
  // call that hangs) on one job and on two: the run still stops, its thread(s) left running
  // and noted, and the results say interrupted. A runner that waited for them would not end.
  // The abandoned pools keep their temporary folders: they go into the test's own folder, as
  // the command line puts them into its staging folder, not into TMPDIR.
  const simverify::framework::fakes::TestFolder staging("simverify-runner-abandoned");
  for (const int jobs : {1, 2}) {
    std::atomic<bool> stop{false};
    RunOptions o;
    o.jobs = jobs;
    o.isolation = Isolation::none;
    o.stop = &stop;
    o.temp_root = staging.path;
    std::jthread interrupter([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      stop = true;
    });
    auto r = run("requirements:\n" + req("HANG", "unit", "sleeper", "{seconds: [3600, 3600]}",
                                         "{measure: y, threshold: \">= 0\"}"),
                 o);
    EXPECT_TRUE(r->recorder.points.empty()) << jobs << " job(s)";
    EXPECT_FALSE(r->recorder.summary.complete);
    EXPECT_EQ(r->recorder.result("HANG").reason, "not run: interrupted after 0 of 2 point(s)");
    EXPECT_TRUE(simverify::core::threads_abandoned());
    // The abandoned threads still read the requirement: it is kept (as the command line does).
    static_cast<void>(r.release());
  }
}

TEST(Runner, JobsRunInParallel) {
  // 8 points that sleep 0.5 s on 4 workers: at some instant at least two points are under
  // way at once. Sleeping needs no core, so this holds on a loaded machine too, and it is
  // judged from when the points ran, not from how long the run took.
  RunOptions o;
  o.jobs = 4;
  auto r =
      run("requirements:\n" + req("PAR", "unit", "sleeper", "{seconds: {linspace: [0.5, 0.5, 8]}}",
                                  "{measure: y, threshold: \">= 0\"}"),
          o);
  EXPECT_EQ(r->recorder.result("PAR").status, Status::passed);
  ASSERT_EQ(r->recorder.points.size(), 8U);
  std::size_t most_at_once = 0;
  for (const auto& p : r->recorder.points) {
    const double at = std::get<double>(*p.measures.find("started"));
    std::size_t under_way = 0;
    for (const auto& q : r->recorder.points) {
      const double started = std::get<double>(*q.measures.find("started"));
      const double ended = std::get<double>(*q.measures.find("ended"));
      if (started <= at && at < ended) ++under_way;
    }
    most_at_once = std::max(most_at_once, under_way);
  }
  EXPECT_GE(most_at_once, 2U) << "the points ran one after another";
  EXPECT_LE(most_at_once, 4U) << "more points at once than workers";
}
