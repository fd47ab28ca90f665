// The compile time of large single-file diagrams, to show that compile() grows linearly
// with the number of blocks and connections (docs/diagrams.md, "Cost of a diagram"):
//
//   BM_CompileChain/n   a constant, n - 2 gains in a chain, an integrator (n blocks)
//   BM_CompileFanIn/n   n constants into one sum of n inputs (n + 1 blocks)
//   BM_CompileLoop/n    n gains in one feed-through cycle solved by Newton (one loop of n)
//   BM_CompileFunctions/n  n diagram parameters, n function blocks in a chain reading one each
//
// Each is one compile() of a spec built in memory (no YAML), Iterations(1) so the 100k
// cases stay affordable; run with --benchmark_repetitions=3 for medians.
#include <simverify/simulation/diagram/diagram_model.hpp>

#include <benchmark/benchmark.h>

#include <string>

namespace {

namespace dg = simverify::simulation::diagram;

// named("b", i) without operator+ (g++ 12 reports a false -Wrestrict for it).
std::string named(const char* prefix, int i) {
  return std::string(prefix).append(std::to_string(i));
}

dg::Param number(const std::string& name, double v) {
  dg::Param p;
  p.name = name;
  p.values = {v};
  p.rows = p.cols = 1;
  return p;
}

dg::BlockSpec block(std::string name, std::string type, std::vector<dg::Param> params = {}) {
  dg::BlockSpec b;
  b.name = std::move(name);
  b.type = std::move(type);
  b.params = std::move(params);
  return b;
}

void connect(dg::DiagramSpec& d, const std::string& from, const std::string& to,
             const std::string& port = "") {
  d.connections.push_back({{from, "", {}}, {to, port, {}}, {}});
}

dg::DiagramSpec chain(int blocks) {
  dg::DiagramSpec d;
  d.blocks.push_back(block("b0", "constant", {number("value", 1.0)}));
  for (int i = 1; i < blocks - 1; ++i) {
    d.blocks.push_back(block(named("b", i), "gain", {number("k", 1.0)}));
    connect(d, named("b", i - 1), named("b", i));
  }
  d.blocks.push_back(block("x", "integrator"));
  connect(d, named("b", blocks - 2), "x");
  return d;
}

dg::DiagramSpec fan_in(int inputs) {
  dg::DiagramSpec d;
  dg::Param signs;
  signs.name = "signs";
  signs.is_text = true;
  signs.text = std::string(static_cast<std::size_t>(inputs), '+');
  d.blocks.push_back(block("s", "sum", {signs}));
  for (int i = 0; i < inputs; ++i) {
    const std::string name = named("c", i);
    d.blocks.push_back(block(name, "constant", {number("value", 1.0)}));
    connect(d, name, "s", named("u", i + 1));
  }
  return d;
}

dg::DiagramSpec loop(int blocks) {
  dg::DiagramSpec d = chain(blocks + 2);
  d.blocks.front() = block("b0", "gain", {number("k", 0.5)});  // closes the cycle
  connect(d, named("b", blocks), "b0");
  d.loops.policy = dg::LoopPolicy::newton;
  return d;
}

dg::DiagramSpec functions(int blocks) {
  dg::DiagramSpec d;
  d.blocks.push_back(block("f0", "constant", {number("value", 1.0)}));
  for (int i = 1; i <= blocks; ++i) {
    d.parameters.push_back({named("p", i), 1.0, {}});
    dg::Param expr;
    expr.name = "expr";
    expr.is_text = true;
    expr.text = named("p", i).append(" * u");
    d.blocks.push_back(block(named("f", i), "function", {expr}));
    d.blocks.back().function_inputs = {"u"};
    connect(d, named("f", i - 1), named("f", i), "u");
  }
  return d;
}

void BM_CompileChain(benchmark::State& state) {
  const dg::DiagramSpec d = chain(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(dg::compile(d).get());
}

void BM_CompileFanIn(benchmark::State& state) {
  const dg::DiagramSpec d = fan_in(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(dg::compile(d).get());
}

void BM_CompileLoop(benchmark::State& state) {
  const dg::DiagramSpec d = loop(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(dg::compile(d).get());
}

void BM_CompileFunctions(benchmark::State& state) {
  const dg::DiagramSpec d = functions(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(dg::compile(d).get());
}

}  // namespace

BENCHMARK(BM_CompileChain)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompileFanIn)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompileLoop)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompileFunctions)->Arg(1000)->Arg(4000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
