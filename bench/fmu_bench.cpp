// Van der Pol as an FMU (model exchange, FMI 2.0 and 3.0; testsuites/fmus) against the
// built-in van_der_pol model: the same equations integrated by the same method at rtol =
// atol = 1e-8 over the model's 20 s (three limit cycles, mu = 1), trajectory recorded. The
// difference is the cost of the FMI calls (set time, set states, get derivatives through
// function pointers, each status checked) and of the per-run instantiation: with ode45 both
// take the same fixed-size stepper (make_fixed_size_stepper; the FMU's f is one plain function
// per FMI version and state count), so the step itself costs both the same.
//
//   BM_VanDerPol/<model>/<method>   one simulation run
//   BM_Summary                      ratio_<fmi>_<method> = median FMU run / median built-in run,
//                                   in the thread's CPU time (the machine may be shared)
// Target (issue 16): ratio <= 1.5 with ode45.
#include <simverify/fmu/model_exchange.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <benchmark/benchmark.h>

#include <time.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <vector>

namespace {

namespace sim = simverify::simulation;
namespace fmu = simverify::fmu;

std::unique_ptr<sim::Model> model(const std::string& which) {
  if (which == "builtin") return sim::make_model("van_der_pol");
  const auto path = std::filesystem::path(SIMVERIFY_TEST_FMU_DIR) / which / "VanDerPol.fmu";
  return std::make_unique<fmu::ModelExchangeModel>(fmu::Fmu::open(path));
}

sim::SimulatorSettings settings(const std::string& method) {
  sim::SimulatorSettings s;
  s.method = method;
  s.tf = 20.0;
  s.stepper.rtol = 1e-8;
  s.stepper.atol = {1e-8};
  return s;
}

// CPU time of this thread: time the thread waited while others ran (a shared, loaded machine)
// does not count, unlike the wall clock's.
double thread_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

void run_once(const sim::Model& m, const sim::SimulatorSettings& s) {
  const auto result = sim::Simulator(m, s).run();
  benchmark::DoNotOptimize(result.x_end.data());
}

void BM_VanDerPol(benchmark::State& state, const std::string& which, const std::string& method) {
  const auto m = model(which);
  const auto s = settings(method);
  for (auto _ : state) run_once(*m, s);
}

// Median CPU seconds of one run over kRuns runs, the contenders interleaved run by run so that
// load from elsewhere on the machine (caches, frequency) falls on all of them alike.
void BM_Summary(benchmark::State& state) {
  constexpr int kRuns = 101;
  const std::vector<std::string> contenders = {"builtin", "fmi2", "fmi3"};
  for (auto _ : state) {
    for (const std::string method : {"ode45", "ode15s"}) {
      std::vector<std::unique_ptr<sim::Model>> models;
      for (const auto& c : contenders) models.push_back(model(c));
      const auto s = settings(method);
      std::vector<std::vector<double>> seconds(contenders.size());
      for (int r = 0; r < kRuns; ++r) {
        for (std::size_t k = 0; k < contenders.size(); ++k) {
          const double start = thread_seconds();
          run_once(*models[k], s);
          seconds[k].push_back(thread_seconds() - start);
        }
      }
      std::vector<double> median;
      for (auto& samples : seconds) {
        std::nth_element(samples.begin(), samples.begin() + kRuns / 2, samples.end());
        median.push_back(samples[kRuns / 2]);
      }
      state.counters["builtin_us_" + method] = median[0] * 1e6;
      for (std::size_t k = 1; k < contenders.size(); ++k) {
        state.counters["ratio_" + contenders[k] + "_" + method] = median[k] / median[0];
      }
    }
  }
}

}  // namespace

BENCHMARK_CAPTURE(BM_VanDerPol, builtin_ode45, std::string("builtin"), std::string("ode45"));
BENCHMARK_CAPTURE(BM_VanDerPol, fmi2_ode45, std::string("fmi2"), std::string("ode45"));
BENCHMARK_CAPTURE(BM_VanDerPol, fmi3_ode45, std::string("fmi3"), std::string("ode45"));
BENCHMARK_CAPTURE(BM_VanDerPol, builtin_ode15s, std::string("builtin"), std::string("ode15s"));
BENCHMARK_CAPTURE(BM_VanDerPol, fmi2_ode15s, std::string("fmi2"), std::string("ode15s"));
BENCHMARK_CAPTURE(BM_VanDerPol, fmi3_ode15s, std::string("fmi3"), std::string("ode15s"));
BENCHMARK(BM_Summary)->Iterations(1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
