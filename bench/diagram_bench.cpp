// The quarter car as a block diagram (requirements/integration/diagrams/models/
// quarter_car.yaml) against the built-in quarter_car: the cost of one right-hand-side
// evaluation and of one solve (ode45, rtol 1e-8, a class B road at 20 m/s over 3 s), and
// the compile time of a 1,000-block diagram (a chain of gains into an integrator).
//
//   BM_Rhs/<model>, BM_Solve/<model>, BM_Compile1000
//   BM_Summary: ratio_rhs, ratio_solve = median diagram / median built-in (interleaved)
// Targets (issue 15): ratio <= 1.5, compile of 1,000 blocks < 50 ms.
#include <simverify/components/diagram_file.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <vector>

namespace {

namespace sim = simverify::simulation;
namespace dg = simverify::simulation::diagram;

std::unique_ptr<sim::Model> model(bool diagram) {
  if (!diagram) return sim::make_model("quarter_car");
  return std::make_unique<dg::DiagramModel>(simverify::components::load_diagram(
      std::filesystem::path(SIMVERIFY_SOURCE_DIR) /
      "requirements/integration/diagrams/models/quarter_car.yaml"));
}

sim::SimulatorSettings settings() {
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.tf = 3.0;
  s.stepper.rtol = 1e-8;
  s.stepper.atol = {1e-10};
  s.input = sim::road_input('B', 20.0, 1);
  return s;
}

double rhs_seconds(const sim::Model& m, int n) {
  const std::vector<double> p = m.default_parameters();
  sim::Context context;
  context.p = p;
  context.u = {0.01, 0.2};
  sim::Vector x = m.info().default_x0;
  sim::Vector dxdt(x.size());
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    x[1] = 1e-6 * i;
    m.rhs(0.0, x, context, dxdt);
    benchmark::DoNotOptimize(dxdt.data());
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / n;
}

double solve_seconds(const sim::Model& m) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = sim::Simulator(m, settings()).run();
  benchmark::DoNotOptimize(r.x_end.data());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void BM_Rhs(benchmark::State& state, bool diagram) {
  const auto m = model(diagram);
  for (auto _ : state) benchmark::DoNotOptimize(rhs_seconds(*m, 1000));
}

void BM_Solve(benchmark::State& state, bool diagram) {
  const auto m = model(diagram);
  for (auto _ : state) benchmark::DoNotOptimize(solve_seconds(*m));
}

dg::DiagramSpec chain(int blocks) {
  dg::DiagramSpec d;
  d.name = "chain";
  dg::BlockSpec c;
  c.name = "b0";
  c.type = "constant";
  dg::Param value;
  value.name = "value";
  value.values = {1.0};
  value.rows = value.cols = 1;
  c.params = {value};
  d.blocks.push_back(c);
  for (int i = 1; i < blocks - 1; ++i) {
    dg::BlockSpec g;
    g.name = "b" + std::to_string(i);
    g.type = "gain";
    dg::Param k = value;
    k.name = "k";
    g.params = {k};
    d.blocks.push_back(g);
    d.connections.push_back({{"b" + std::to_string(i - 1), "", {}}, {g.name, "", {}}, {}});
  }
  dg::BlockSpec x;
  x.name = "x";
  x.type = "integrator";
  d.blocks.push_back(x);
  d.connections.push_back({{"b" + std::to_string(blocks - 2), "", {}}, {"x", "", {}}, {}});
  return d;
}

void BM_Compile1000(benchmark::State& state) {
  const dg::DiagramSpec d = chain(1000);
  for (auto _ : state) benchmark::DoNotOptimize(dg::compile(d).get());
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

void BM_Summary(benchmark::State& state) {
  const auto builtin = model(false);
  const auto diagram = model(true);
  for (auto _ : state) {
    std::vector<double> rb, rd, sb, sd;
    for (int run = 0; run < 21; ++run) {
      rb.push_back(rhs_seconds(*builtin, 20000));
      rd.push_back(rhs_seconds(*diagram, 20000));
      sb.push_back(solve_seconds(*builtin));
      sd.push_back(solve_seconds(*diagram));
    }
    state.counters["rhs_builtin_ns"] = 1e9 * median(rb);
    state.counters["rhs_diagram_ns"] = 1e9 * median(rd);
    state.counters["ratio_rhs"] = median(rd) / median(rb);
    state.counters["solve_builtin_ms"] = 1e3 * median(sb);
    state.counters["solve_diagram_ms"] = 1e3 * median(sd);
    state.counters["ratio_solve"] = median(sd) / median(sb);
  }
}

}  // namespace

BENCHMARK_CAPTURE(BM_Rhs, builtin, false);
BENCHMARK_CAPTURE(BM_Rhs, diagram, true);
BENCHMARK_CAPTURE(BM_Solve, builtin, false);
BENCHMARK_CAPTURE(BM_Solve, diagram, true);
BENCHMARK(BM_Compile1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Summary)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_MAIN();
