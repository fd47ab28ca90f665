// What running a `command` point's program costs us beyond starting a program at all
// (EXTERNAL-SYSTEMS.md): run_program -- keeper process, socket and pipes, the wait for the
// keeper -- against the least a program can be run with, fork + execve + waitpid with its
// output on a pipe, both for /bin/cat echoing a point's JSON. The ratio of their medians is
// printed at the end; both are wall time (the program's own CPU time is not ours).
//   command_bench [--benchmark_* options]
#include <benchmark/benchmark.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "program_run.hpp"

namespace {

constexpr const char* kProgram = "/bin/cat";
const std::string kPointInput = R"({"conditions":{"g":0.5},"point":0,"requirement":"BENCH"})";

// The peer: what any harness must do to run a program and read its output.
std::string bare_run(const std::string& input) {
  int to_child[2], from_child[2];
  if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) throw std::runtime_error("pipe");
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork");
  if (pid == 0) {
    ::dup2(to_child[0], 0);
    ::dup2(from_child[1], 1);
    ::close(to_child[0]);
    ::close(to_child[1]);
    ::close(from_child[0]);
    ::close(from_child[1]);
    ::execl(kProgram, kProgram, static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  (void)!::write(to_child[1], input.data(), input.size());
  ::close(to_child[1]);
  std::string out;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = ::read(from_child[0], buffer, sizeof buffer)) > 0) out.append(buffer, n);
  ::close(from_child[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return out;
}

void BM_BareForkExec(benchmark::State& state) {
  for (auto _ : state) {
    const std::string out = bare_run(kPointInput);
    if (out != kPointInput) state.SkipWithError("cat did not echo its input");
  }
}

void BM_RunProgram(benchmark::State& state) {
  simverify::components::ProgramSpec spec;
  spec.program = kProgram;
  spec.arguments = {kProgram};
  spec.directory = "/";
  spec.input = kPointInput;
  for (auto _ : state) {
    const auto outcome = simverify::components::run_program(spec);
    if (outcome.out != kPointInput || outcome.exit_status != 0) {
      state.SkipWithError("run_program did not get cat's echo");
    }
  }
}

// Wall time: the time a point waits, whoever spends it.
BENCHMARK(BM_BareForkExec)->UseRealTime()->Repetitions(9)->ReportAggregatesOnly(true);
BENCHMARK(BM_RunProgram)->UseRealTime()->Repetitions(9)->ReportAggregatesOnly(true);

// Prints ours / bare from the medians once all have run.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      if (run.aggregate_name != "median") continue;
      const double time = run.GetAdjustedRealTime();
      if (run.benchmark_name().starts_with("BM_BareForkExec")) bare_ = time;
      if (run.benchmark_name().starts_with("BM_RunProgram")) ours_ = time;
    }
    ConsoleReporter::ReportRuns(runs);
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    if (bare_ > 0.0 && ours_ > 0.0) {
      std::printf("\nrun_program / bare fork+exec (median wall time per run): %.2f\n",
                  ours_ / bare_);
    }
  }

 private:
  double bare_ = 0.0, ours_ = 0.0;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
