// Runner overhead (issue 4): the structured runner (forked workers, streamed results) against a
// hand-written loop calling the same ~10 us component over 1e5 grid points; the speed-up with
// 2 jobs; and peak memory for a 1e6-point grid with results.json streamed to disk.
//
//   BM_HandWrittenLoop      the baseline: evaluate + reduce the measure, nothing else
//   BM_Runner/jobs:J        Runner, Isolation::process, J jobs, no listeners
//   BM_RunnerInProcess      Runner, Isolation::none, 1 job
//   BM_Summary              overhead_pct = (runner 1 job / hand loop - 1) * 100,
//                           cpu_overhead_pct (the same in CPU time of runner + workers, which
//                           other load on the machine does not distort), speedup_2_jobs, and
//                           peak RSS (MiB) of runner + workers after a 1e5- and a 1e6-point
//                           run with the JSON reporter, and how far the run grew it beyond
//                           the grid's own storage (run_growth_*: bounded if about equal)
// Targets: overhead <= 3 %, speed-up >= 1.85 on 2 idle cores, memory not growing with the grid.
#include <simverify/framework/reporters/reporters.hpp>
#include <simverify/framework/runner.hpp>

#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace {

using namespace simverify::framework;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kPoints = 100'000;

// About 10 us of arithmetic that the optimizer cannot drop (depends on x, result used).
double busy_work(double x, int iterations) {
  double acc = x;
  for (int i = 0; i < iterations; ++i) acc = std::sqrt(acc * acc + 1.0 + 1e-9 * i);
  return acc;
}

int calibrated_iterations() {
  static const int iterations = [] {
    int n = 1000;
    for (;;) {
      const auto start = Clock::now();
      double sink = 0;
      for (int k = 0; k < 100; ++k) sink += busy_work(k, n);
      benchmark::DoNotOptimize(sink);
      const double us =
          std::chrono::duration<double, std::micro>(Clock::now() - start).count() / 100;
      if (us > 9.0 || n > 1'000'000) return static_cast<int>(n * 10.0 / us);
      n *= 2;
    }
  }();
  return iterations;
}

ComponentRegistry make_registry() {
  ComponentRegistry registry;
  const int iterations = calibrated_iterations();
  registry.add({{"busy", "about 10 us of work", {"x"}, {"y"}},
                [iterations](const Condition& c) {
                  Measurement m;
                  m.set("y", busy_work(c.number("x"), iterations));
                  return m;
                },
                nullptr});
  registry.add({{"trivial", "no work", {"x"}, {"y"}},
                [](const Condition& c) {
                  Measurement m;
                  m.set("y", c.number("x"));
                  return m;
                },
                nullptr});
  return registry;
}

std::vector<Requirement> grid_requirement(const std::string& component, std::size_t points) {
  Requirement r;
  r.id = "BENCH-";
  r.id += std::to_string(points);  // (not operator+: GCC 12 warns -Wrestrict on it)
  r.level = Level::unit;
  r.component = component;
  Axis x;
  x.name = "x";
  x.values.reserve(points);
  for (std::size_t i = 0; i < points; ++i) x.values.emplace_back(static_cast<double>(i));
  // Not AxisGroup{{std::move(x)}}: an initializer list copies, and the transient second copy
  // of a 1e6-point axis (88 MiB) set the peak RSS that run_growth attributes to the run.
  AxisGroup group;
  group.axes.push_back(std::move(x));
  r.conditions.add_group(std::move(group));
  r.quality.measure.push_back('y');  // not = "y": GCC 12 -Wrestrict false positive (PR105329)
  r.quality.threshold = *Threshold::parse("<= 1e300");
  std::vector<Requirement> requirements;  // not `return {std::move(r)}`: that copies too
  requirements.push_back(std::move(r));
  return requirements;
}

double hand_loop_seconds(const ComponentRegistry& registry, const Requirement& r) {
  const Component& c = *registry.find("busy");
  const auto start = Clock::now();
  double sum = 0;
  for (std::size_t i = 0; i < r.conditions.size(); ++i) {
    sum += evaluate_measure(c.evaluate(r.conditions.point(i)), "y");
  }
  benchmark::DoNotOptimize(sum);
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double runner_seconds(const ComponentRegistry& registry, const std::vector<Requirement>& rs,
                      int jobs, Isolation isolation) {
  RunOptions o;
  o.jobs = jobs;
  o.isolation = isolation;
  RunListener none;
  const auto start = Clock::now();
  const RunSummary s = Runner(registry, o).run(rs, none);
  if (!s.releasable) throw std::runtime_error("benchmark requirement did not pass");
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double cpu_seconds(int who) {
  rusage u{};
  ::getrusage(who, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

// Resident set size now (not the peak), from /proc/self/statm.
double current_rss_mib() {
  long pages = 0, resident = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) /
         (1024.0 * 1024.0);
}

double max_rss_mib() {
  rusage self{}, children{};
  ::getrusage(RUSAGE_SELF, &self);
  ::getrusage(RUSAGE_CHILDREN, &children);
  return static_cast<double>(std::max(self.ru_maxrss, children.ru_maxrss)) / 1024.0;
}

void BM_HandWrittenLoop(benchmark::State& state) {
  const auto registry = make_registry();
  const auto rs = grid_requirement("busy", kPoints);
  for (auto _ : state) state.SetIterationTime(hand_loop_seconds(registry, rs.front()));
  state.counters["us_per_point"] = benchmark::Counter(
      static_cast<double>(kPoints) * 1e-6,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_HandWrittenLoop)->Iterations(3)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_Runner(benchmark::State& state) {
  const auto registry = make_registry();
  const auto rs = grid_requirement("busy", kPoints);
  for (auto _ : state) {
    state.SetIterationTime(
        runner_seconds(registry, rs, static_cast<int>(state.range(0)), Isolation::process));
  }
}
BENCHMARK(BM_Runner)->ArgName("jobs")->Arg(1)->Arg(2)->Iterations(3)->UseManualTime()->Unit(
    benchmark::kMillisecond);

void BM_RunnerInProcess(benchmark::State& state) {
  const auto registry = make_registry();
  const auto rs = grid_requirement("busy", kPoints);
  for (auto _ : state) state.SetIterationTime(runner_seconds(registry, rs, 1, Isolation::none));
}
BENCHMARK(BM_RunnerInProcess)->Iterations(3)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_Summary(benchmark::State& state) {
  const auto registry = make_registry();
  const auto rs = grid_requirement("busy", kPoints);
  double hand = 1e300, one = 1e300, two = 1e300, hand_cpu = 1e300, one_cpu = 1e300;
  for (auto _ : state) {
    // Best of 3 each, interleaved, so a noisy neighbour hurts all three alike.
    for (int k = 0; k < 3; ++k) {
      double cpu = cpu_seconds(RUSAGE_SELF);
      hand = std::min(hand, hand_loop_seconds(registry, rs.front()));
      hand_cpu = std::min(hand_cpu, cpu_seconds(RUSAGE_SELF) - cpu);
      // CPU of the runner and its (reaped) workers: robust against other load on the machine.
      cpu = cpu_seconds(RUSAGE_SELF) + cpu_seconds(RUSAGE_CHILDREN);
      one = std::min(one, runner_seconds(registry, rs, 1, Isolation::process));
      one_cpu = std::min(one_cpu, cpu_seconds(RUSAGE_SELF) + cpu_seconds(RUSAGE_CHILDREN) - cpu);
      two = std::min(two, runner_seconds(registry, rs, 2, Isolation::process));
    }
  }
  state.counters["overhead_pct"] = (one / hand - 1.0) * 100.0;
  state.counters["cpu_overhead_pct"] = (one_cpu / hand_cpu - 1.0) * 100.0;
  state.counters["speedup_2_jobs"] = one / two;
  state.counters["hand_us_per_point"] = hand / kPoints * 1e6;

  // Memory: results.json streamed; the runner keeps per-requirement aggregates only.
  std::string name = "simverify-bench-";
  name += std::to_string(::getpid());
  const auto dir = std::filesystem::temp_directory_path() / name;
  for (std::size_t points : {std::size_t{100'000}, std::size_t{1'000'000}}) {
    const auto big = grid_requirement("trivial", points);
    const double before = current_rss_mib();  // the grid itself is the user's input
    ListenerList listeners;
    listeners.add(make_json_reporter(dir));
    RunOptions o;
    o.jobs = 2;
    Runner(registry, o).run(big, listeners);
    const bool small = points == 100'000;
    state.counters[small ? "max_rss_mib_1e5" : "max_rss_mib_1e6"] = max_rss_mib();
    state.counters[small ? "run_growth_mib_1e5" : "run_growth_mib_1e6"] =
        std::max(0.0, max_rss_mib() - before);
  }
  state.counters["results_json_mib_1e6"] =
      static_cast<double>(std::filesystem::file_size(dir / "results.json")) / (1024.0 * 1024.0);
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_Summary)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
