// Runge-Kutta-Nystrom against the general Runge-Kutta methods on second-order problems
// x'' = g(t, q) (the simulation-practice article: the same accuracy with fewer evaluations
// of f). Work is counted in evaluations of f (one evaluation of g for a Nystrom stage, one
// of f = (v, g) for a general stage: the same cost), and timed.
//
//   BM_Fixed/<model>/<method>          rk4 against rkn4 at h = 0.01: error and f_evals
//   BM_Adaptive/<model>/<method>/<k>   ode45 against rkn64 at rtol = atol = 10^-k
//   BM_SameAccuracy/<model>            f_evals of ode45 at the error rkn64 reaches at rtol
//                                      1e-9 (log-log interpolated over ode45's rtol sweep),
//                                      and the ratio ode45 / rkn64 (> 1.5: "more than 50 %")
// Models: harmonic_oscillator (10 periods, exact solution) and spring_pendulum (10 s,
// reference ode45 at rtol 1e-13).
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace sim = simverify::simulation;

struct Outcome {
  double error = 0.0;
  double f_evals = 0.0;
};

sim::SimulatorSettings settings(const std::string& method, double h, double tol) {
  sim::SimulatorSettings s;
  s.method = method;
  s.h = h;
  s.tf = 10.0;
  s.stepper.rtol = tol;
  s.stepper.atol = {tol};
  s.record_trajectory = false;
  return s;
}

// x(10 s): exact for the oscillator (ten full periods of the 1 Hz default), ode45 at rtol
// 1e-13 for the pendulum.
sim::Vector reference(const std::string& model) {
  if (model == "harmonic_oscillator") return sim::Vector{{1.0, 0.0}};
  const auto m = sim::make_model(model);
  return sim::Simulator(*m, settings("ode45", 0.0, 1e-13)).run().x_end;
}

Outcome solve(const std::string& model, const sim::Vector& exact, const std::string& method,
              double h, double tol) {
  const auto m = sim::make_model(model);
  const auto r = sim::Simulator(*m, settings(method, h, tol)).run();
  return {(r.x_end - exact).cwiseAbs().maxCoeff(),
          static_cast<double>(r.statistics.rhs_evaluations)};
}

void report(benchmark::State& state, const Outcome& o) {
  state.counters["error"] = o.error;
  state.counters["f_evals"] = o.f_evals;
}

void BM_Fixed(benchmark::State& state, const std::string& model, const std::string& method) {
  const sim::Vector exact = reference(model);
  Outcome o;
  for (auto _ : state) o = solve(model, exact, method, 0.01, 1e-3);
  report(state, o);
}

void BM_Adaptive(benchmark::State& state, const std::string& model, const std::string& method) {
  const double tol = std::pow(10.0, -static_cast<double>(state.range(0)));
  const sim::Vector exact = reference(model);
  Outcome o;
  for (auto _ : state) o = solve(model, exact, method, 0.0, tol);
  report(state, o);
}

// The evaluations ode45 needs for `error`, interpolated in log-log between the two rtol of
// its sweep (10^-k/4) whose errors bracket it.
double ode45_evals_at(const std::string& model, const sim::Vector& exact, double error) {
  Outcome previous = solve(model, exact, "ode45", 0.0, 1e-4);
  for (double k = 4.25; k <= 13.0; k += 0.25) {
    const Outcome next = solve(model, exact, "ode45", 0.0, std::pow(10.0, -k));
    if (next.error <= error && previous.error > error) {
      const double s = std::log(error / previous.error) / std::log(next.error / previous.error);
      return std::exp(std::log(previous.f_evals) + s * std::log(next.f_evals / previous.f_evals));
    }
    previous = next;
  }
  return NAN;
}

void BM_SameAccuracy(benchmark::State& state, const std::string& model) {
  const sim::Vector exact = reference(model);
  Outcome rkn64;
  double ode45 = 0.0;
  for (auto _ : state) {
    rkn64 = solve(model, exact, "rkn64", 0.0, 1e-9);
    ode45 = ode45_evals_at(model, exact, rkn64.error);
  }
  state.counters["error"] = rkn64.error;
  state.counters["rkn64_f_evals"] = rkn64.f_evals;
  state.counters["ode45_f_evals"] = ode45;
  state.counters["ratio"] = ode45 / rkn64.f_evals;
}

void register_benchmarks() {
  for (const std::string model : {"harmonic_oscillator", "spring_pendulum"}) {
    for (const std::string method : {"rk4", "rkn4"}) {
      benchmark::RegisterBenchmark(("BM_Fixed/" + model + "/" + method).c_str(), BM_Fixed, model,
                                   method);
    }
    for (const std::string method : {"ode45", "rkn64"}) {
      benchmark::RegisterBenchmark(("BM_Adaptive/" + model + "/" + method).c_str(), BM_Adaptive,
                                   model, method)
          ->DenseRange(6, 10, 2);
    }
    benchmark::RegisterBenchmark(("BM_SameAccuracy/" + model).c_str(), BM_SameAccuracy, model)
        ->Iterations(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
