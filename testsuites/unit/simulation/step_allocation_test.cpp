// The step loop does not allocate (stepper.hpp: workspace is sized in initialize()): for every
// registered method, and for the Simulator's loop when no trajectory is recorded, the number
// of heap allocations of a run does not grow with the number of steps. Setup allocations
// (the run's vectors and result; a stepper's workspace once it has run) are the same for a
// short and a long run, so comparing the two counts isolates what the loop allocates.
//
// Counting: this executable replaces malloc/calloc/realloc/free with counting wrappers around
// glibc's own allocator. Eigen allocates through malloc, not operator new, so replacing
// operator new alone would miss the dynamic vectors that matter here. Sanitizer builds bring
// their own allocator and cannot be wrapped this way; there the tests are skipped.
#include "diagram_test_support.hpp"
#include "stepper_test_support.hpp"

#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <string>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__GLIBC__)
#define SIMVERIFY_COUNT_ALLOCATIONS 0
#else
#define SIMVERIFY_COUNT_ALLOCATIONS 1
#endif

namespace {
std::atomic<long> allocation_count{0};
}  // namespace

#if SIMVERIFY_COUNT_ALLOCATIONS
// The glibc manual ("Replacing malloc") names malloc, free, calloc and realloc as the set a
// replacement must provide. These count and forward to glibc's own allocator through its
// exported __libc_* entry points, so the memory stays glibc's and the functions not
// replaced (posix_memalign, aligned_alloc, ...) remain consistent with free().
// NOLINTBEGIN(bugprone-reserved-identifier,readability-identifier-naming): glibc's names
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void __libc_free(void* pointer);

void* malloc(std::size_t size) noexcept {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) noexcept {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(pointer, size);
}
void free(void* pointer) noexcept {
  __libc_free(pointer);
}
}
// NOLINTEND(bugprone-reserved-identifier,readability-identifier-naming)
#endif

namespace sim = simverify::simulation;

namespace {

// Allocations made while `run` executes.
template <class Run>
long allocations_during(const Run& run) {
  const long before = allocation_count.load();
  run();
  return allocation_count.load() - before;
}

// Van der Pol, mu = 1 (non-stiff, nonlinear, with Jacobian for the implicit methods): x0 on
// the limit cycle's scale, so every method takes many comparable steps.
sim::OdeSystem van_der_pol_system() {
  constexpr double kVanDerPolMu = 1.0;
  return sim::OdeSystem(
      2,
      [](double, const sim::Vector& x, sim::Vector& dx) {
        dx(0) = x(1);
        dx(1) = kVanDerPolMu * (1.0 - x(0) * x(0)) * x(1) - x(0);
      },
      [](double, const sim::Vector& x, sim::Matrix& j) {
        j(0, 0) = 0.0;
        j(0, 1) = 1.0;
        j(1, 0) = -2.0 * kVanDerPolMu * x(0) * x(1) - 1.0;
        j(1, 1) = kVanDerPolMu * (1.0 - x(0) * x(0));
      });
}

// The pendulum q'' = -9 sin q, for the Runge-Kutta-Nystrom methods (they need x'' = g(t, q),
// which Van der Pol's velocity-dependent damping is not); fast enough (omega = 3) for rkn64
// to take many steps.
sim::OdeSystem pendulum() {
  sim::OdeSystem system(2, [](double, const sim::Vector& x, sim::Vector& dx) {
    dx(0) = x(1);
    dx(1) = -9.0 * std::sin(x(0));
  });
  system.set_second_order({{0}, {1}, [](double, const sim::Vector& q, sim::Vector& a) {
                             a(0) = -9.0 * std::sin(q(0));
                           }});
  return system;
}

class StepAllocation : public ::testing::TestWithParam<std::string> {};

// The counter works at all: a dynamic vector of the kind a careless step would create.
TEST(StepAllocationCounter, SeesEigenTemporaries) {
  if (!SIMVERIFY_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocator is a sanitizer's";
  const sim::Vector a = sim::Vector::Ones(3);
  const long n = allocations_during([&] {
    const sim::Vector b = 2.0 * a;  // one malloc in Eigen's aligned_malloc
    EXPECT_EQ(b(0), 2.0);
  });
  EXPECT_EQ(n, 1);
}

TEST_P(StepAllocation, StepLoopAllocatesNothingPerStep) {
  if (!SIMVERIFY_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocator is a sanitizer's";
  const std::string method = GetParam();
  const auto system = sim::method_info(method).second_order ? pendulum() : van_der_pol_system();
  sim::StepperSettings settings;
  settings.rtol = 1e-6;
  settings.atol = {1e-8};
  sim::Vector x0(2);
  x0 << 2.0, 0.0;
  const bool fixed = sim::method_info(method).control == sim::StepControl::fixed;
  const double h = fixed ? 1e-2 : 0.0;
  sim::Vector x_dense(2);
  // Dense output is part of the loop (events, output times): query it after every step.
  const auto on_step = [&x_dense](double t_old, double t_new, const sim::Stepper& stepper) {
    stepper.interpolate(0.5 * (t_old + t_new), x_dense);
  };
  auto stepper = sim::make_stepper(method);
  // A first run sizes the stepper's workspace (initialize() reuses it afterwards), so the two
  // counted runs differ only in their number of steps.
  (void)sim::testing::drive(*stepper, system, 0.0, x0, 6.0, h, settings, on_step);
  long steps_short = 0, steps_long = 0;
  const long short_run = allocations_during([&] {
    const auto r = sim::testing::drive(*stepper, system, 0.0, x0, 3.0, h, settings, on_step);
    steps_short = r.accepted + r.rejected;
  });
  const long long_run = allocations_during([&] {
    const auto r = sim::testing::drive(*stepper, system, 0.0, x0, 6.0, h, settings, on_step);
    steps_long = r.accepted + r.rejected;
  });
  ASSERT_GT(steps_long, steps_short + 10) << method;  // the comparison means something
  EXPECT_EQ(long_run, short_run) << method << ": " << steps_short << " vs " << steps_long
                                 << " attempts";
}

INSTANTIATE_TEST_SUITE_P(Registry, StepAllocation, ::testing::ValuesIn(sim::method_names()),
                         [](const auto& test) { return test.param; });

// The Simulator's loop (Alg 7) adds the model call path, dense output at output times and the
// step bookkeeping; with record_trajectory off it must not allocate per step either.
TEST(StepAllocation, SimulatorLoopWithoutRecordingAllocatesNothingPerStep) {
  if (!SIMVERIFY_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocator is a sanitizer's";
  const auto model = sim::make_model("arenstorf");
  const auto run_to = [&](double tf) {
    sim::SimulatorSettings s;
    s.method = "ode45";
    s.tf = tf;
    s.record_trajectory = false;
    s.stepper.rtol = 1e-8;
    s.stepper.atol = {1e-8};
    const sim::Simulator simulator(*model, s);
    long steps = 0;
    const long n = allocations_during([&] { steps = simulator.run().statistics.steps; });
    return std::pair{n, steps};
  };
  const auto [short_allocations, short_steps] = run_to(5.0);
  const auto [long_allocations, long_steps] = run_to(10.0);
  ASSERT_GT(long_steps, short_steps + 10);
  EXPECT_EQ(long_allocations, short_allocations) << short_steps << " vs " << long_steps << " steps";
}

// A compiled block diagram evaluates without allocating (diagram_model.hpp): after the first
// evaluation of a thread created its workspace, rhs, output and event functions of a diagram
// with an expression block (muParser bytecode), a Newton-solved algebraic loop, a state
// space block, a transfer function, a lookup table and a saturation allocate nothing.
TEST(StepAllocation, DiagramEvaluationAllocatesNothing) {
  if (!SIMVERIFY_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocator is a sanitizer's";
  namespace dg = sim::diagram;
  using namespace sim::diagram::testing;
  dg::DiagramSpec d;
  d.name = "mixed";
  d.parameters = {{"c", 0.5, {}}};
  d.blocks = {
      block("x", "integrator", {number("x0", 1.0)}),
      block("f", "function", {text("expr", "c * sin(a) + t")}),
      block("loop", "sum", {text("signs", "+-")}),
      block("half", "gain", {number("k", 0.5)}),
      block("sat", "saturation", {number("lower", -1.0), number("upper", 1.0)}),
      block("ss", "state_space",
            {matrix("A", {{0.0, 1.0}, {-1.0, -0.1}}), matrix("B", {{0.0}, {1.0}}),
             matrix("C", {{1.0, 0.0}})}),
      block("lag", "transfer_function", {list("num", {1.0, 2.0}), list("den", {1.0, 3.0})}),
      block("lut", "lookup_table", {list("x", {-1.0, 0.0, 1.0}), list("y", {1.0, 0.0, 2.0})})};
  d.blocks[1].function_inputs = {"a"};
  d.connections = {wire("x", "f.a"),     wire("f", "loop.u1"), wire("half", "loop.u2"),
                   wire("loop", "half"), wire("loop", "sat"),  wire("sat", "ss"),
                   wire("ss", "x"),      wire("sat", "lag"),   wire("lag", "lut")};
  d.outputs = {output("y", "sat"), output("table", "lut")};
  d.loops.policy = dg::LoopPolicy::newton;
  const dg::DiagramModel model(dg::compile(d));
  const std::vector<double> p = model.default_parameters();
  sim::Context context;
  context.p = p;
  sim::Vector x = model.info().default_x0;
  sim::Vector dxdt(x.size());
  sim::Vector y(2);
  model.rhs(0.0, x, context, dxdt);  // creates this thread's workspace
  const long n = allocations_during([&] {
    for (int i = 0; i < 1000; ++i) {
      const double t = 0.001 * i;
      x[0] = std::cos(t);  // a new point each time: the loop solver iterates
      model.rhs(t, x, context, dxdt);
      model.output(t, x, context, y);
      (void)model.event_value(0, t, x, context);
    }
  });
  EXPECT_EQ(n, 0);
}

// An affine diagram evaluates as one folded affine map (linear_form.hpp): after the workspace
// exists, neither f and y nor folding it again for a changed parameter allocate.
TEST(StepAllocation, FoldedDiagramAllocatesNothing) {
  if (!SIMVERIFY_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocator is a sanitizer's";
  namespace dg = sim::diagram;
  using namespace sim::diagram::testing;
  dg::DiagramSpec d;
  d.name = "affine";
  d.parameters = {{"c", 0.5, {}}};
  d.blocks = {block("u", "inport"), block("x", "integrator", {number("x0", 1.0)}),
              block("f", "function", {text("expr", "-c * a + t")}),
              block("k", "gain", {number("k", 2.0)}), block("s", "sum", {text("signs", "++")})};
  d.blocks[2].function_inputs = {"a"};
  d.connections = {wire("x", "f.a"), wire("f", "s.u1"), wire("u", "k"), wire("k", "s.u2"),
                   wire("s", "x")};
  d.outputs = {output("y", "s")};
  const dg::DiagramModel model(dg::compile(d));
  std::vector<double> p = model.default_parameters();
  sim::Context context;
  context.p = p;
  context.u = {0.3, 0.0};
  sim::Vector x = model.info().default_x0;
  sim::Vector dxdt(x.size());
  sim::Vector y(1);
  model.rhs(0.0, x, context, dxdt);  // creates this thread's workspace
  const long n = allocations_during([&] {
    for (int i = 0; i < 1000; ++i) {
      const double t = 0.001 * i;
      x[0] = std::cos(t);
      p[0] = 0.5 + (i % 2);  // c changes: folded again
      model.rhs(t, x, context, dxdt);
      model.output(t, x, context, y);
    }
  });
  EXPECT_EQ(n, 0);
  EXPECT_NEAR(dxdt[0], -1.5 * x[0] + 0.999 + 0.6, 1e-14);  // the last c, 1.5
}

}  // namespace
