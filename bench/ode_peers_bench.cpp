// simverify's adaptive Runge-Kutta methods against Boost.Odeint on one period of the
// Arenstorf orbit (Hairer-Norsett-Wanner I, Sec. II.0): f evaluations, accepted and rejected
// steps, end error |x(T) - x0|_inf (the orbit is periodic), and CPU time per solve (Google
// Benchmark, median of 9 repetitions). One run prints the benchmarks and then a side-by-side
// table with ratios ours / odeint.
//   ode45 (Dormand-Prince 5(4), PI control)  vs  odeint runge_kutta_dopri5 + make_controlled
//   dp8(5) (Dormand-Prince 8 with DOP853's 5th-order embedded solution; ode8 is fixed-step,
//   this is the same tableau in our generic adaptive stepper)
//                                             vs  odeint runge_kutta_fehlberg78 controlled
// The tolerances mean slightly different things: ours accepts when every
// |e_i| <= max(rtol max(|x_i|, |x_new_i|), atol) (seed 001 eq. 3), odeint when every
// |e_i| <= atol + rtol (|x_i| + h |x'_i|). odeint's test is looser by up to ~2x at equal
// nominal tolerance, so the table also compares f evaluations and CPU time at equal achieved
// end error, interpolating ours log-log over a finer tolerance sweep (the two sweep
// tolerances that bracket the peer's end error are benchmarked like the others).
#include "methods/adaptive_rk_stepper.hpp"

#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/tableaux.hpp>

#include <benchmark/benchmark.h>
#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sim = simverify::simulation;
namespace odeint = boost::numeric::odeint;

namespace {

constexpr double kMu = 0.012277471;
constexpr double kPeriod = 17.0652165601579625588917206249;
constexpr double kX0[4] = {0.994, 0.0, 0.0, -2.00158510637908252240537862224};
const double kTolerances[] = {1e-6, 1e-8, 1e-10};
// Enough repetitions for a stable median on a shared machine: t@=err combines three of them.
constexpr int kRepetitions = 9;

// The one right-hand side both libraries call.
template <class In, class Out>
inline void arenstorf(const In& y, Out& dy) {
  const double mu_hat = 1.0 - kMu;
  const double r1 = (y[0] + kMu) * (y[0] + kMu) + y[1] * y[1];
  const double r2 = (y[0] - mu_hat) * (y[0] - mu_hat) + y[1] * y[1];
  const double d1 = r1 * std::sqrt(r1);
  const double d2 = r2 * std::sqrt(r2);
  dy[0] = y[2];
  dy[1] = y[3];
  dy[2] = y[0] + 2.0 * y[3] - mu_hat * (y[0] + kMu) / d1 - kMu * (y[0] - mu_hat) / d2;
  dy[3] = y[1] - 2.0 * y[2] - mu_hat * y[1] / d1 - kMu * y[1] / d2;
}

struct Outcome {
  std::int64_t rhs_evaluations = 0;
  long accepted = 0;
  long rejected = 0;
  double end_error = 0.0;
};

double end_error(const double* x) {
  double e = 0.0;
  for (int i = 0; i < 4; ++i) e = std::max(e, std::abs(x[i] - kX0[i]));
  return e;
}

// ---- simverify: the Stepper step loop as the Simulator runs it --------------------------

using StepperMaker = std::function<std::unique_ptr<sim::Stepper>()>;

Outcome solve_ours(const StepperMaker& make, double tol) {
  const sim::OdeSystem system(
      4, [](double, const sim::Vector& x, sim::Vector& dx) { arenstorf(x, dx); });
  auto stepper = make();
  sim::StepperSettings settings;
  settings.rtol = tol;
  settings.atol = {tol};
  sim::Vector x(4), x_new(4);
  for (int i = 0; i < 4; ++i) x(i) = kX0[i];
  stepper->initialize(system, 0.0, x, settings);
  double t = 0.0;
  double h = stepper->initial_step(system, t, x, kPeriod);
  Outcome out;
  while (kPeriod - t > 1e-12) {
    const double step = std::min(h, kPeriod - t);
    const auto a = stepper->attempt(system, t, x, step, x_new);
    h = a.next_step;
    if (!a.accepted) {
      ++out.rejected;
      continue;
    }
    ++out.accepted;
    t += step;
    x.swap(x_new);
  }
  out.rhs_evaluations = system.rhs_evaluations();
  out.end_error = end_error(x.data());
  return out;
}

StepperMaker registered(const std::string& name) {
  return [name] { return sim::make_stepper(name); };
}

StepperMaker dp8_adaptive() {
  return [] {
    sim::detail::StepControlParameters control;
    return std::make_unique<sim::detail::AdaptiveRungeKuttaStepper>(
        sim::tableaux::dormand_prince8(), nullptr, control);
  };
}

// ---- Boost.Odeint: controlled stepper driven by try_step, as integrate_adaptive does ----

using State = std::vector<double>;

template <class ErrorStepper>
Outcome solve_odeint(double tol) {
  std::int64_t evaluations = 0;
  auto system = [&evaluations](const State& x, State& dx, double) {
    ++evaluations;
    arenstorf(x, dx);
  };
  auto stepper = odeint::make_controlled(tol, tol, ErrorStepper());
  State x(kX0, kX0 + 4);
  double t = 0.0;
  double dt = 1e-4;  // odeint has no starting step heuristic; integrate_adaptive takes dt
  Outcome out;
  while (kPeriod - t > 1e-12) {
    dt = std::min(dt, kPeriod - t);
    if (stepper.try_step(system, x, t, dt) == odeint::success) {
      ++out.accepted;
    } else {
      ++out.rejected;
    }
  }
  out.rhs_evaluations = evaluations;
  out.end_error = end_error(x.data());
  return out;
}

Outcome solve_dopri5(double tol) {
  return solve_odeint<odeint::runge_kutta_dopri5<State>>(tol);
}
Outcome solve_fehlberg78(double tol) {
  return solve_odeint<odeint::runge_kutta_fehlberg78<State>>(tol);
}

// ---- benchmarks ----------------------------------------------------------------------

struct Contender {
  std::string name;
  std::function<Outcome(double)> solve;
};

const std::vector<std::pair<Contender, Contender>>& matchups() {
  static const std::vector<std::pair<Contender, Contender>> m = {
      {{"ode45", [](double tol) { return solve_ours(registered("ode45"), tol); }},
       {"odeint_dopri5", solve_dopri5}},
      {{"dp8_5", [](double tol) { return solve_ours(dp8_adaptive(), tol); }},
       {"odeint_fehlberg78", solve_fehlberg78}},
  };
  return m;
}

std::string bench_name(const std::string& solver, double tol) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s/tol:%g", solver.c_str(), tol);
  return buffer;
}

// Registers `contender` at `tol` once (a sweep tolerance may print like a table tolerance).
void register_benchmark(const Contender& contender, double tol, std::set<std::string>& registered) {
  const std::string name = bench_name(contender.name, tol);
  if (!registered.insert(name).second) return;
  benchmark::RegisterBenchmark(name.c_str(),
                               [solve = contender.solve, tol](benchmark::State& state) {
                                 for (auto _ : state) {
                                   benchmark::DoNotOptimize(solve(tol));
                                 }
                               })
      ->Unit(benchmark::kMicrosecond)
      ->MinTime(0.05)
      ->Repetitions(kRepetitions)
      ->ReportAggregatesOnly(true);
}

// Ours over a tolerance sweep (10^-2 .. 10^-13 in quarter decades), for comparisons at equal
// achieved end error.
const std::vector<double>& sweep_tolerances() {
  static const std::vector<double> tolerances = [] {
    std::vector<double> t;
    for (int k = 0; k <= 44; ++k) t.push_back(std::pow(10.0, -2.0 - 0.25 * k));
    return t;
  }();
  return tolerances;
}

// The two adjacent sweep tolerances whose end errors bracket `error`, and where `error` lies
// between them on a log scale (0: at lo, 1: at hi).
struct Bracket {
  double tol_lo = 0.0, tol_hi = 0.0;
  Outcome lo, hi;
  double s = 0.0;
};

std::optional<Bracket> bracket_at_error(const std::function<Outcome(double)>& solve, double error) {
  const auto& tolerances = sweep_tolerances();
  Outcome previous = solve(tolerances.front());
  for (std::size_t k = 1; k < tolerances.size(); ++k) {
    const Outcome next = solve(tolerances[k]);
    if ((previous.end_error - error) * (next.end_error - error) <= 0.0 &&
        previous.end_error != next.end_error) {
      const double s =
          std::log(error / previous.end_error) / std::log(next.end_error / previous.end_error);
      return Bracket{tolerances[k - 1], tolerances[k], previous, next, s};
    }
    previous = next;
  }
  return std::nullopt;
}

// log-log interpolation between the bracket's ends.
double interpolate(double at_lo, double at_hi, double s) {
  return std::exp(std::log(at_lo) + s * std::log(at_hi / at_lo));
}

void register_benchmarks() {
  std::set<std::string> registered;
  for (const auto& [ours, peer] : matchups()) {
    for (const Contender* c : {&ours, &peer}) {
      for (double tol : kTolerances) register_benchmark(*c, tol, registered);
    }
    // Ours at the sweep tolerances that reach the peer's end errors: the t@=err column.
    std::set<double> extra;
    for (double tol : kTolerances) {
      if (const auto bracket = bracket_at_error(ours.solve, peer.solve(tol).end_error)) {
        extra.insert(bracket->tol_lo);
        extra.insert(bracket->tol_hi);
      }
    }
    for (double tol : extra) register_benchmark(ours, tol, registered);
  }
}

// Keeps the console output and records the median CPU time (microseconds) per benchmark: on
// a shared machine CPU time is the stable measure of work; wall time is printed above.
class MedianRecorder : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median") {
        medians[run.run_name.function_name] = run.GetAdjustedCPUTime();
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> medians;
};

double median_or_nan(const std::map<std::string, double>& medians, const std::string& name) {
  const auto it = medians.find(name);
  return it != medians.end() ? it->second : std::nan("");
}

// A second measure of the same ratios: the contenders solve in alternating batches in one
// loop and each keeps its best batch, so a slow stretch of the shared machine hits all of
// them alike (Google Benchmark times each contender in its own stretch). Both tables are
// printed because neither is steady on a shared VM: ode45 runs at about 31 or about 50 ns
// per f evaluation from one stretch to the next, odeint moves far less (docs/solvers.md).
// Microseconds per solve.
std::vector<double> interleaved_microseconds(const std::vector<std::function<Outcome()>>& solves) {
  constexpr int kBatches = 15;
  constexpr int kSolvesPerBatch = 20;
  std::vector<double> best(solves.size(), std::numeric_limits<double>::infinity());
  for (int batch = 0; batch < kBatches; ++batch) {
    for (std::size_t c = 0; c < solves.size(); ++c) {
      const auto start = std::chrono::steady_clock::now();
      for (int r = 0; r < kSolvesPerBatch; ++r) benchmark::DoNotOptimize(solves[c]());
      const std::chrono::duration<double, std::micro> took =
          std::chrono::steady_clock::now() - start;
      best[c] = std::min(best[c], took.count() / kSolvesPerBatch);
    }
  }
  return best;
}

void print_interleaved() {
  std::printf(
      "\nThe same, timed interleaved (best of 15 alternating batches of 20 solves, wall "
      "time)\n%-18s %-7s %10s | %-18s %10s | %7s %7s\n",
      "ours", "tol", "us", "peer", "us", "t ratio", "t@=err");
  for (const auto& [ours, peer] : matchups()) {
    for (double tol : kTolerances) {
      const auto bracket = bracket_at_error(ours.solve, peer.solve(tol).end_error);
      const double lo = bracket ? bracket->tol_lo : tol;
      const double hi = bracket ? bracket->tol_hi : tol;
      const auto us = interleaved_microseconds(
          {[&] { return ours.solve(tol); }, [&] { return peer.solve(tol); },
           [&] { return ours.solve(lo); }, [&] { return ours.solve(hi); }});
      const double t_equal = bracket ? interpolate(us[2], us[3], bracket->s) : std::nan("");
      std::printf("%-18s %-7g %10.1f | %-18s %10.1f | %7.2f %7.2f\n", ours.name.c_str(), tol, us[0],
                  peer.name.c_str(), us[1], us[0] / us[1], t_equal / us[1]);
    }
  }
}

void print_summary(const std::map<std::string, double>& medians) {
  std::printf(
      "\nArenstorf orbit, one period, rtol = atol = tol (CPU time: medians of %d repetitions)\n",
      kRepetitions);
  std::printf("%-18s %-7s %8s %6s %5s %10s %10s | %-18s %8s %6s %5s %10s %10s | %7s %7s %7s %7s\n",
              "ours", "tol", "f evals", "steps", "rej", "end error", "cpu[us]", "peer", "f evals",
              "steps", "rej", "end error", "cpu[us]", "f ratio", "t ratio", "f@=err", "t@=err");
  for (const auto& [ours, peer] : matchups()) {
    for (double tol : kTolerances) {
      const Outcome a = ours.solve(tol);
      const Outcome b = peer.solve(tol);
      const double ta = median_or_nan(medians, bench_name(ours.name, tol));
      const double tb = median_or_nan(medians, bench_name(peer.name, tol));
      double f_equal = std::nan("");
      double t_equal = std::nan("");
      if (const auto bracket = bracket_at_error(ours.solve, b.end_error)) {
        f_equal = interpolate(static_cast<double>(bracket->lo.rhs_evaluations),
                              static_cast<double>(bracket->hi.rhs_evaluations), bracket->s);
        t_equal =
            interpolate(median_or_nan(medians, bench_name(ours.name, bracket->tol_lo)),
                        median_or_nan(medians, bench_name(ours.name, bracket->tol_hi)), bracket->s);
      }
      std::printf(
          "%-18s %-7g %8lld %6ld %5ld %10.2e %10.1f | %-18s %8lld %6ld %5ld %10.2e %10.1f | "
          "%7.2f %7.2f %7.2f %7.2f\n",
          ours.name.c_str(), tol, static_cast<long long>(a.rhs_evaluations), a.accepted, a.rejected,
          a.end_error, ta, peer.name.c_str(), static_cast<long long>(b.rhs_evaluations), b.accepted,
          b.rejected, b.end_error, tb,
          static_cast<double>(a.rhs_evaluations) / static_cast<double>(b.rhs_evaluations), ta / tb,
          f_equal / static_cast<double>(b.rhs_evaluations), t_equal / tb);
    }
  }
  std::printf(
      "f ratio, t ratio: ours / peer at equal nominal tolerance. f@=err, t@=err: f evaluations "
      "and median CPU time ours needs to reach the peer's end error (log-log interpolation "
      "between the two bracketing tolerances of a sweep tol = 1e-2..1e-13 in quarter decades, "
      "each benchmarked), divided by the peer's. Target: t@=err <= 1.\n");
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  MedianRecorder reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  print_summary(reporter.medians);
  print_interleaved();
  return 0;
}
