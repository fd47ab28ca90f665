// simverify's solution methods against two peer libraries, each pair on the same right-hand
// side: f evaluations, accepted and rejected steps, Jacobians, end error and CPU time per
// solve (Google Benchmark, 15 repetitions: median, best and the share of slow ones). One run
// prints the benchmarks and then side-by-side tables with ratios ours / peer. Each peer runs in
// the configuration its documentation recommends for repeated small solves.
//   arenstorf (one period, x(T) = x0), non-stiff:
//     ode45 (Dormand-Prince 5(4), PI control)  vs  Boost.Odeint runge_kutta_dopri5 controlled,
//                                                  on std::vector and on std::array<double, 4>
//                                                  (odeint's advice for small fixed systems)
//     pd8(7) (Prince-Dormand RK8(7)13M, the ode8 tableau with its 7th-order embedded solution;
//     ode8 is fixed-step, this is the same tableau in our generic adaptive stepper)
//                                              vs  odeint runge_kutta_fehlberg78 controlled
//     ode113 (Adams PECE, orders 1-12)          vs  SUNDIALS CVODE Adams (fixed point)
//   (CVODE's memory, vector and solvers are created once and re-initialised with CVodeReInit
//   for every solve, as its guide advises for a sequence of problems of the same size)
//   robertson (t = 40) and van_der_pol (mu = 1000, t = 3000), stiff:
//     ode15s (BDF, orders 1-5)                  vs  CVODE BDF, Newton, dense LU, same Jacobian
//   and the Simulator against driving its stepper directly (issue 19: it may add at most
//   5%): the built-in arenstorf model with ode45 through sim::Simulator (x_end only, no
//   trajectory) vs the same model's fixed-size stepper and f under sim::integrate
// The tolerances mean slightly different things: ours accepts when every
// |e_i| <= max(rtol max(|x_i|, |x_new_i|), atol) (Simulink solver list, eq. 3), odeint when every
// |e_i| <= atol + rtol (|x_i| + h |x'_i|), CVODE when the weighted RMS norm of e is <= 1.
// So the table also compares f evaluations and CPU time at equal achieved end error,
// interpolating ours log-log over a finer tolerance sweep (the two sweep tolerances that
// bracket the peer's end error are benchmarked like the others).
// Modes besides the benchmarks (each described where it is implemented below):
//   --solve=PROBLEM/NAME:TOL[:N]   N solves of one contender, for counting its instructions
//   --instructions[=FILTER]        instructions per solve (callgrind) at equal tolerance and
//                                  at equal end error, every row or those FILTER keeps
//   --work-precision=FILE          every contender over its sweep, as CSV for the diagram

#include <unistd.h>

#include <simverify/simulation/integrate.hpp>
#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>
#include "methods/fixed_size_adaptive_stepper.hpp"
#include "process.hpp"

#include <benchmark/benchmark.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>
#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace sim = simverify::simulation;
namespace odeint = boost::numeric::odeint;

namespace {

// ---- problems: one right-hand side (and Jacobian) that every library calls ---------------

struct Problem {
  const char* name;
  int dimension;
  void (*rhs)(const double* x, double* dx);
  void (*jacobian)(const double* x, double* dfdx);  // row-major; nullptr: not needed
  std::vector<double> x0;
  double t_end;
  std::vector<double> reference;  // x(t_end)
  std::vector<double> scale;      // end error = max_i |x_i - reference_i| / scale_i
  double atol_per_tol;            // atol = atol_per_tol * tol, rtol = tol
  std::vector<double> tolerances;
  double sweep_from, sweep_to;  // the sweep for comparisons at equal end error
};

// Arenstorf orbit (Hairer-Norsett-Wanner I, Sec. II.0): periodic, so x(T) = x0.
constexpr double kMu = 0.012277471;
// always_inline: where f is known at compile time (the `_inline` contenders) it inlines; GCC's
// unit-growth limit in this large file would otherwise keep it out of line.
[[gnu::always_inline]] inline void arenstorf(const double* y, double* dy) {
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

// Robertson's chemical kinetics (HNW II, Sec. IV.1), stiff; relative end error per species.
void robertson(const double* y, double* dy) {
  dy[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
  dy[2] = 3e7 * y[1] * y[1];
  dy[1] = -dy[0] - dy[2];
}
void robertson_jacobian(const double* y, double* j) {
  const double rows[9] = {-0.04,       1e4 * y[2], 1e4 * y[1], 0.04, -1e4 * y[2] - 6e7 * y[1],
                          -1e4 * y[1], 0.0,        6e7 * y[1], 0.0};
  std::copy(rows, rows + 9, j);
}

// Van der Pol with mu = 1000 (HNW II, Sec. IV.1; MATLAB's vdpode), stiff.
constexpr double kVdpMu = 1000.0;
void van_der_pol(const double* y, double* dy) {
  dy[0] = y[1];
  dy[1] = kVdpMu * (1.0 - y[0] * y[0]) * y[1] - y[0];
}
void van_der_pol_jacobian(const double* y, double* j) {
  j[0] = 0.0;
  j[1] = 1.0;
  j[2] = -2.0 * kVdpMu * y[0] * y[1] - 1.0;
  j[3] = kVdpMu * (1.0 - y[0] * y[0]);
}

Problem arenstorf_problem() {
  const std::vector<double> x0 = {0.994, 0.0, 0.0, -2.00158510637908252240537862224};
  return {"arenstorf", 4,
          arenstorf,   nullptr,
          x0,          17.0652165601579625588917206249,
          x0,          {1.0, 1.0, 1.0, 1.0},
          1.0,         {1e-6, 1e-8, 1e-10},
          1e-2,        1e-13};
}

// Enough repetitions for a stable median on a shared machine (t@=err combines three of them)
// and for a share of slow repetitions that means something.
constexpr int kRepetitions = 15;

// ---- batch statistics: the machine is shared, so every table reports the median batch, the
// best batch and the share of slow batches (slower than kSlowFactor times the best: ode45 has
// a slow state about 1.5 times its fast one, docs/solvers.md) ----------------------------

constexpr double kSlowFactor = 1.25;

double median_of(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  if (n == 0) return std::nan("");
  return n % 2 == 1 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
}

double best_of(const std::vector<double>& times) {
  return times.empty() ? std::nan("") : *std::min_element(times.begin(), times.end());
}

double slow_share(const std::vector<double>& times) {
  if (times.empty()) return std::nan("");
  const double limit = kSlowFactor * best_of(times);
  const auto slow = std::count_if(times.begin(), times.end(), [&](double t) { return t > limit; });
  return static_cast<double>(slow) / static_cast<double>(times.size());
}

struct BatchTimes {
  double median = std::nan("");
  double best = std::nan("");
  double slow = std::nan("");  // share of batches slower than kSlowFactor * best
};

BatchTimes batch_times(const std::vector<double>& times) {
  return {median_of(times), best_of(times), slow_share(times)};
}

struct Outcome {
  std::int64_t rhs_evaluations = 0;
  long accepted = 0;
  long rejected = 0;
  long jacobians = 0;
  double end_error = 0.0;
};

double end_error(const Problem& p, const double* x) {
  double e = 0.0;
  for (int i = 0; i < p.dimension; ++i) {
    const auto k = static_cast<std::size_t>(i);
    e = std::max(e, std::abs(x[i] - p.reference[k]) / p.scale[k]);
  }
  return e;
}

// ---- simverify: the Stepper step loop as the Simulator runs it --------------------------

using StepperMaker = std::function<std::unique_ptr<sim::Stepper>()>;

// One solve of p at tol by `stepper` on `system`, and what it cost; step_hold as
// StepperSettings::step_hold (0: Thm 3.35's controller on every step).
Outcome solve_with(sim::Stepper& stepper, const sim::OdeSystem& system, const Problem& p,
                   double tol, double step_hold = 0.0) {
  sim::StepperSettings settings;
  settings.step_hold = step_hold;
  settings.rtol = tol;
  settings.atol = {p.atol_per_tol * tol};
  const auto n = static_cast<Eigen::Index>(p.dimension);
  const sim::Vector x =
      sim::integrate(stepper, system, 0.0, Eigen::Map<const sim::Vector>(p.x0.data(), n), p.t_end,
                     0.0, settings)
          .x;
  Outcome out;
  out.rhs_evaluations = system.rhs_evaluations();
  out.accepted = stepper.statistics().accepted_steps;
  out.rejected = stepper.statistics().rejected_steps;
  out.jacobians = system.jacobian_evaluations();
  out.end_error = end_error(p, x.data());
  return out;
}

Outcome solve_ours(const Problem& p, const StepperMaker& make, double tol, double step_hold = 0.0) {
  const auto n = static_cast<Eigen::Index>(p.dimension);
  sim::OdeSystem::Jacobian jacobian;
  if (p.jacobian != nullptr) {
    jacobian = [&p, n](double, const sim::Vector& x, sim::Matrix& dfdx) {
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows(n, n);
      p.jacobian(x.data(), rows.data());
      dfdx = rows;
    };
  }
  const sim::OdeSystem system(
      n, [&p](double, const sim::Vector& x, sim::Vector& dx) { p.rhs(x.data(), dx.data()); },
      jacobian);
  const auto stepper = make();
  return solve_with(*stepper, system, p, tol, step_hold);
}

StepperMaker registered(const std::string& name) {
  return [name] { return sim::make_stepper(name); };
}

// The fixed-size path (methods/fixed_size_adaptive_stepper.hpp): the whole adaptive step on
// std::array<double, N> with f a template parameter, as the Simulator runs a built-in model
// of N states. f is the problem's, called through its function pointer as odeint's is.
// f through the problem's pointer, as odeint's contenders call it; or, with Rhs, f known at
// compile time, so that it inlines (the `_inline` contenders, both ours and odeint's).
using RhsFunction = void (*)(const double* x, double* dx);

template <int N, RhsFunction Rhs = nullptr>
StepperMaker fixed_size(const Problem& p, const std::string& name) {
  using State = std::array<double, N>;
  return [rhs = p.rhs, name] {
    return sim::detail::make_fixed_size_stepper<N>(
        name, [rhs](double, const State& x, State& dx) SIMVERIFY_FIXED_SIZE_INLINE_LAMBDA {
          if constexpr (Rhs != nullptr) {
            Rhs(x.data(), dx.data());
          } else {
            rhs(x.data(), dx.data());
          }
        });
  };
}

// ---- the Simulator against its stepper driven directly: both solve the built-in arenstorf
// model (its own f, reading mu from the run's context) with ode45 on the model's fixed-size
// stepper, the stepper the Simulator takes for a run without input -------------------------

const sim::Model& arenstorf_model() {
  static const std::unique_ptr<sim::Model> model = sim::make_model("arenstorf");
  return *model;
}

Outcome solve_model_directly(const Problem& p, double tol) {
  const sim::Model& model = arenstorf_model();
  const std::vector<double> parameters = model.default_parameters();
  sim::Context context;
  context.p = parameters;
  const sim::OdeSystem system(
      4, [&](double t, const sim::Vector& x, sim::Vector& dx) { model.rhs(t, x, context, dx); });
  const auto stepper = model.fixed_size_stepper("ode45", context);
  return solve_with(*stepper, system, p, tol);
}

Outcome solve_simulator(const Problem& p, double tol) {
  sim::SimulatorSettings s;
  s.method = "ode45";
  s.tf = p.t_end;
  s.x0 = Eigen::Map<const sim::Vector>(p.x0.data(), 4);
  s.stepper.rtol = tol;
  s.stepper.atol = {p.atol_per_tol * tol};
  s.record_trajectory = false;  // x_end only, as `simverify run` reading x_end
  const sim::SimulatorResult r = sim::Simulator(arenstorf_model(), s).run();
  Outcome out;
  out.rhs_evaluations = r.statistics.rhs_evaluations;
  out.accepted = r.statistics.steps;
  out.rejected = r.statistics.rejected_steps;
  out.end_error = end_error(p, r.x_end.data());
  return out;
}

// ---- Boost.Odeint: controlled stepper driven by try_step, as integrate_adaptive does ----
// The state is the stepper's: std::vector (any size) or std::array (size fixed at compile
// time; odeint's documentation recommends it for small systems, its loops then unroll).

template <class ErrorStepper, RhsFunction Rhs = nullptr>
Outcome solve_odeint(const Problem& p, double tol) {
  using State = typename ErrorStepper::state_type;
  State x{};
  if constexpr (requires(State s) { s.resize(std::size_t{}); }) {
    x.resize(p.x0.size());
  } else if (x.size() != p.x0.size()) {
    throw std::invalid_argument(std::string(p.name) + ": odeint's std::array state has " +
                                std::to_string(x.size()) + " entries, the problem " +
                                std::to_string(p.x0.size()));
  }
  std::copy(p.x0.begin(), p.x0.end(), x.begin());
  std::int64_t evaluations = 0;
  auto system = [&evaluations, &p](const State& at, State& dx, double) {
    ++evaluations;
    if constexpr (Rhs != nullptr) {
      Rhs(at.data(), dx.data());
    } else {
      p.rhs(at.data(), dx.data());
    }
  };
  auto stepper = odeint::make_controlled(p.atol_per_tol * tol, tol, ErrorStepper());
  double t = 0.0;
  double dt = 1e-4;  // odeint has no starting step heuristic; integrate_adaptive takes dt
  Outcome out;
  while (p.t_end - t > 1e-12 * p.t_end) {
    dt = std::min(dt, p.t_end - t);
    if (stepper.try_step(system, x, t, dt) == odeint::success) {
      ++out.accepted;
    } else {
      ++out.rejected;
    }
  }
  out.rhs_evaluations = evaluations;
  out.end_error = end_error(p, x.data());
  return out;
}

// ---- SUNDIALS CVODE: Adams (fixed-point corrector) or BDF (Newton, dense LU, p.jacobian) -

template <class T, auto destroy>
struct Deleter {
  void operator()(T* handle) const { destroy(handle); }
};
void free_context(SUNContext context) {
  SUNContext_Free(&context);
}
void free_cvode(void* memory) {
  CVodeFree(&memory);
}
using ContextHandle = std::unique_ptr<std::remove_pointer_t<SUNContext>,
                                      Deleter<std::remove_pointer_t<SUNContext>, free_context>>;
using VectorHandle = std::unique_ptr<std::remove_pointer_t<N_Vector>,
                                     Deleter<std::remove_pointer_t<N_Vector>, N_VDestroy>>;
using MatrixHandle = std::unique_ptr<std::remove_pointer_t<SUNMatrix>,
                                     Deleter<std::remove_pointer_t<SUNMatrix>, SUNMatDestroy>>;
using LinearSolverHandle =
    std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>,
                    Deleter<std::remove_pointer_t<SUNLinearSolver>, SUNLinSolFree>>;
using NonlinearSolverHandle =
    std::unique_ptr<std::remove_pointer_t<SUNNonlinearSolver>,
                    Deleter<std::remove_pointer_t<SUNNonlinearSolver>, SUNNonlinSolFree>>;
using CvodeHandle = std::unique_ptr<void, Deleter<void, free_cvode>>;

void check_cvode(int flag, const char* call) {
  if (flag < 0) {
    throw std::runtime_error(std::string("CVODE: ") + call + " failed (" + std::to_string(flag) +
                             ")");
  }
}

struct CvodeUser {
  const Problem* problem = nullptr;
  std::int64_t evaluations = 0;
};

int cvode_rhs(sunrealtype, N_Vector x, N_Vector dx, void* user) {
  auto* u = static_cast<CvodeUser*>(user);
  ++u->evaluations;
  u->problem->rhs(N_VGetArrayPointer(x), N_VGetArrayPointer(dx));
  return 0;
}

int cvode_jacobian(sunrealtype, N_Vector x, N_Vector, SUNMatrix dfdx, void* user, N_Vector,
                   N_Vector, N_Vector) {
  const Problem& p = *static_cast<CvodeUser*>(user)->problem;
  std::vector<double> rows(static_cast<std::size_t>(p.dimension) *
                           static_cast<std::size_t>(p.dimension));
  p.jacobian(N_VGetArrayPointer(x), rows.data());
  const auto n = static_cast<std::size_t>(p.dimension);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      SM_ELEMENT_D(dfdx, static_cast<sunindextype>(i), static_cast<sunindextype>(j)) =
          rows[i * n + j];
    }
  }
  return 0;
}

// One CVODE integrator for a problem and method: context, vector, memory and solvers are
// created once, and every solve starts with CVodeReInit, as CVODE's guide advises for a
// sequence of problems of the same size (it also resets the counters read below). Not for
// concurrent use: the benchmarks run one solve at a time.
class CvodeSolver {
 public:
  CvodeSolver(const Problem& p, int multistep) : problem_(p), multistep_(multistep) {
    SUNContext raw_context = nullptr;
    check_cvode(SUNContext_Create(nullptr, &raw_context), "SUNContext_Create");
    context_.reset(raw_context);
    x_.reset(N_VNew_Serial(p.dimension, raw_context));
    std::copy(p.x0.begin(), p.x0.end(), N_VGetArrayPointer(x_.get()));
    cvode_.reset(CVodeCreate(multistep, raw_context));
    user_.problem = &problem_;
    void* mem = cvode_.get();
    check_cvode(CVodeInit(mem, cvode_rhs, 0.0, x_.get()), "CVodeInit");
    check_cvode(CVodeSetUserData(mem, &user_), "CVodeSetUserData");
    check_cvode(CVodeSetMaxNumSteps(mem, 10'000'000), "CVodeSetMaxNumSteps");
    if (multistep == CV_BDF) {
      matrix_.reset(SUNDenseMatrix(p.dimension, p.dimension, raw_context));
      linear_.reset(SUNLinSol_Dense(x_.get(), matrix_.get(), raw_context));
      check_cvode(CVodeSetLinearSolver(mem, linear_.get(), matrix_.get()), "CVodeSetLinearSolver");
      check_cvode(CVodeSetJacFn(mem, cvode_jacobian), "CVodeSetJacFn");
    } else {  // non-stiff: functional iteration, no Jacobian (CVODE's advice for Adams)
      fixed_point_.reset(SUNNonlinSol_FixedPoint(x_.get(), 0, raw_context));
      check_cvode(CVodeSetNonlinearSolver(mem, fixed_point_.get()), "CVodeSetNonlinearSolver");
    }
  }
  CvodeSolver(const CvodeSolver&) = delete;  // CVODE holds &user_
  CvodeSolver& operator=(const CvodeSolver&) = delete;
  ~CvodeSolver() = default;

  // end_state, when given, receives x(t_end).
  Outcome solve(double tol, std::vector<double>* end_state = nullptr) {
    const Problem& p = problem_;
    void* mem = cvode_.get();
    std::copy(p.x0.begin(), p.x0.end(), N_VGetArrayPointer(x_.get()));
    check_cvode(CVodeReInit(mem, 0.0, x_.get()), "CVodeReInit");
    user_.evaluations = 0;
    check_cvode(CVodeSStolerances(mem, tol, p.atol_per_tol * tol), "CVodeSStolerances");
    check_cvode(CVodeSetStopTime(mem, p.t_end), "CVodeSetStopTime");  // end at t_end, as ours
    sunrealtype t = 0.0;
    check_cvode(CVode(mem, p.t_end, x_.get(), &t, CV_NORMAL), "CVode");
    long steps = 0, error_test_fails = 0, convergence_fails = 0, jacobians = 0;
    check_cvode(CVodeGetNumSteps(mem, &steps), "CVodeGetNumSteps");
    check_cvode(CVodeGetNumErrTestFails(mem, &error_test_fails), "CVodeGetNumErrTestFails");
    check_cvode(CVodeGetNumNonlinSolvConvFails(mem, &convergence_fails),
                "CVodeGetNumNonlinSolvConvFails");
    if (multistep_ == CV_BDF) {
      check_cvode(CVodeGetNumJacEvals(mem, &jacobians), "CVodeGetNumJacEvals");
    }
    const double* end = N_VGetArrayPointer(x_.get());
    if (end_state != nullptr) end_state->assign(end, end + p.dimension);
    Outcome out;
    out.rhs_evaluations = user_.evaluations;
    out.accepted = steps;
    out.rejected = error_test_fails + convergence_fails;
    out.jacobians = jacobians;
    out.end_error = end_error(p, end);
    return out;
  }

 private:
  Problem problem_;
  int multistep_;
  CvodeUser user_;
  // Declared in the order of creation, so the CVODE memory is freed first, the context last.
  ContextHandle context_;
  VectorHandle x_;
  MatrixHandle matrix_;
  LinearSolverHandle linear_;
  NonlinearSolverHandle fixed_point_;
  CvodeHandle cvode_;
};

// The stiff problems have no closed form: x(t_end) is CVODE BDF's at rtol 1e-12, far below
// the table's tolerances (the bench prints how far ode15s lands from it at the same rtol).
Problem with_cvode_reference(Problem p) {
  p.reference = p.x0;  // any values: the reference run's own end error is not used
  CvodeSolver(p, CV_BDF).solve(1e-12, &p.reference);
  return p;
}

Problem robertson_problem() {
  // atol = 1e-6 tol: y2 stays near 1e-5, so its error is controlled relatively.
  return with_cvode_reference({"robertson",
                               3,
                               robertson,
                               robertson_jacobian,
                               {1.0, 0.0, 0.0},
                               40.0,
                               {},
                               {1.0, 1e-5, 1.0},
                               1e-6,
                               {1e-5, 1e-7, 1e-9},
                               1e-3,
                               1e-11});
}

Problem van_der_pol_problem() {
  return with_cvode_reference({"van_der_pol",
                               2,
                               van_der_pol,
                               van_der_pol_jacobian,
                               {2.0, 0.0},
                               3000.0,
                               {},
                               {1.0, 1.0},
                               1.0,
                               {1e-5, 1e-7, 1e-9},
                               1e-3,
                               1e-11});
}

// ---- benchmarks ----------------------------------------------------------------------

struct Contender {
  std::string name;
  std::function<Outcome(double)> solve;
};

struct Matchup {
  Problem problem;
  Contender ours, peer;
};

// The hold band of the `_hold` contenders (StepperSettings::step_hold).
constexpr double kBenchStepHold = 0.3;

const std::vector<Matchup>& matchups() {
  static const std::vector<Matchup> m = [] {
    const Problem orbit = arenstorf_problem();
    const Problem robertson = robertson_problem();
    const Problem vdp = van_der_pol_problem();
    const auto ours = [](const Problem& p, std::string name, const StepperMaker& make,
                         double step_hold = 0.0) {
      return Contender{std::move(name), [p, make, step_hold](double tol) {
                         return solve_ours(p, make, tol, step_hold);
                       }};
    };
    const auto odeint_peer = [](const Problem& p, std::string name, auto solve) {
      return Contender{std::move(name), [p, solve](double tol) { return solve(p, tol); }};
    };
    const auto cvode = [](const Problem& p, std::string name, int multistep) {
      auto solver = std::make_shared<CvodeSolver>(p, multistep);  // shared by the copies
      return Contender{std::move(name), [solver](double tol) { return solver->solve(tol); }};
    };
    return std::vector<Matchup>{
        {orbit, ours(orbit, "ode45", registered("ode45")),
         odeint_peer(orbit, "odeint_dopri5",
                     solve_odeint<odeint::runge_kutta_dopri5<std::vector<double>>>)},
        {orbit, ours(orbit, "ode45", registered("ode45")),
         odeint_peer(orbit, "odeint_dopri5_array",
                     solve_odeint<odeint::runge_kutta_dopri5<std::array<double, 4>>>)},
        {orbit, ours(orbit, "ode45_fixed", fixed_size<4>(orbit, "ode45")),
         odeint_peer(orbit, "odeint_dopri5_array",
                     solve_odeint<odeint::runge_kutta_dopri5<std::array<double, 4>>>)},
        {orbit, ours(orbit, "ode45_fixed_inline", fixed_size<4, arenstorf>(orbit, "ode45")),
         odeint_peer(orbit, "odeint_dopri5_array_inline",
                     solve_odeint<odeint::runge_kutta_dopri5<std::array<double, 4>>, arenstorf>)},
        // With StepperSettings::step_hold: h kept after accepted steps with err in
        // [kBenchStepHold, 1], as odeint keeps it for [0.5, 1].
        {orbit, ours(orbit, "ode45_fixed_hold", fixed_size<4>(orbit, "ode45"), kBenchStepHold),
         odeint_peer(orbit, "odeint_dopri5_array",
                     solve_odeint<odeint::runge_kutta_dopri5<std::array<double, 4>>>)},
        {orbit,
         ours(orbit, "ode45_fixed_inline_hold", fixed_size<4, arenstorf>(orbit, "ode45"),
              kBenchStepHold),
         odeint_peer(orbit, "odeint_dopri5_array_inline",
                     solve_odeint<odeint::runge_kutta_dopri5<std::array<double, 4>>, arenstorf>)},
        {orbit, odeint_peer(orbit, "ode45_simulator", solve_simulator),
         odeint_peer(orbit, "ode45_model_stepper", solve_model_directly)},
        {orbit, ours(orbit, "ode87", registered("ode87")),
         odeint_peer(orbit, "odeint_fehlberg78",
                     solve_odeint<odeint::runge_kutta_fehlberg78<std::vector<double>>>)},
        {orbit, ours(orbit, "ode113", registered("ode113")), cvode(orbit, "cvode_adams", CV_ADAMS)},
        {robertson, ours(robertson, "ode15s", registered("ode15s")),
         cvode(robertson, "cvode_bdf", CV_BDF)},
        {vdp, ours(vdp, "ode15s", registered("ode15s")), cvode(vdp, "cvode_bdf", CV_BDF)},
    };
  }();
  return m;
}

std::string bench_name(const Problem& p, const std::string& solver, double tol) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%s/%s/tol:%g", p.name, solver.c_str(), tol);
  return buffer;
}

// Registers `contender` at `tol` once (a sweep tolerance may print like a table tolerance).
void register_benchmark(const Problem& p, const Contender& contender, double tol,
                        std::set<std::string>& registered) {
  const std::string name = bench_name(p, contender.name, tol);
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
      ->ComputeStatistics("best", best_of)
      ->ComputeStatistics("slow_share", slow_share, benchmark::StatisticUnit::kPercentage)
      ->ReportAggregatesOnly(true);
}

// Ours over the problem's tolerance sweep (quarter decades), for comparisons at equal
// achieved end error.
std::vector<double> sweep_tolerances(const Problem& p) {
  std::vector<double> t;
  for (double e = std::log10(p.sweep_from); e >= std::log10(p.sweep_to) - 1e-9; e -= 0.25) {
    t.push_back(std::pow(10.0, e));
  }
  return t;
}

// The two adjacent sweep tolerances whose end errors bracket `error`, and where `error` lies
// between them on a log scale (0: at lo, 1: at hi).
struct Bracket {
  double tol_lo = 0.0, tol_hi = 0.0;
  Outcome lo, hi;
  double s = 0.0;
};

std::optional<Bracket> bracket_at_error(const Problem& p,
                                        const std::function<Outcome(double)>& solve, double error) {
  const auto tolerances = sweep_tolerances(p);
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
  for (const auto& [problem, ours, peer] : matchups()) {
    for (const Contender* c : {&ours, &peer}) {
      for (double tol : problem.tolerances) register_benchmark(problem, *c, tol, registered);
    }
    // Ours at the sweep tolerances that reach the peer's end errors: the t@=err column.
    std::set<double> extra;
    for (double tol : problem.tolerances) {
      if (const auto bracket = bracket_at_error(problem, ours.solve, peer.solve(tol).end_error)) {
        extra.insert(bracket->tol_lo);
        extra.insert(bracket->tol_hi);
      }
    }
    for (double tol : extra) register_benchmark(problem, ours, tol, registered);
  }
}

// Keeps the console output and records each benchmark's median and best CPU time
// (microseconds) and its share of slow repetitions: on a shared machine CPU time is the
// stable measure of work; wall time is printed above.
class BatchRecorder : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      if (run.run_type != Run::RT_Aggregate) continue;
      BatchTimes& t = times[run.run_name.function_name];
      if (run.aggregate_name == "median") t.median = run.GetAdjustedCPUTime();
      if (run.aggregate_name == "best") t.best = run.GetAdjustedCPUTime();
      // A percentage statistic is kept as computed (a fraction), not per iteration.
      if (run.aggregate_name == "slow_share") t.slow = run.cpu_accumulated_time;
    }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, BatchTimes> times;
};

BatchTimes times_or_nan(const std::map<std::string, BatchTimes>& times, const std::string& name) {
  const auto it = times.find(name);
  return it != times.end() ? it->second : BatchTimes{};
}

// The tables after the benchmarks keep the rows of --benchmark_filter: a row is printed when
// the filter matches the benchmark name of ours or of the peer at the row's tolerance (so
// --benchmark_filter='arenstorf/(ode45|odeint_dopri5)' gives one matchup in about a minute).
class RowFilter {
 public:
  explicit RowFilter(const std::string& pattern) : pattern_(pattern.empty() ? "." : pattern) {}
  [[nodiscard]] bool keeps(const Matchup& m, double tol) const {
    return std::regex_search(bench_name(m.problem, m.ours.name, tol), pattern_) ||
           std::regex_search(bench_name(m.problem, m.peer.name, tol), pattern_);
  }

 private:
  std::regex pattern_;
};

// The value of the last `--name=value` among the arguments, or empty. Read before Google
// Benchmark's Initialize, which consumes its own flags.
std::string flag_value(int argc, char** argv, std::string_view flag) {
  std::string value;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg.substr(0, flag.size()) == flag) value = std::string(arg.substr(flag.size()));
  }
  return value;
}

// Ours' time to reach the peer's end error: log-log interpolation between the bracket's
// tolerances, for one statistic of the batch times (median or best).
double time_at_equal_error(const std::optional<Bracket>& bracket, const BatchTimes& lo,
                           const BatchTimes& hi, double BatchTimes::*statistic) {
  return bracket ? interpolate(lo.*statistic, hi.*statistic, bracket->s) : std::nan("");
}

// The median and best batch of ours and the peer at one tolerance, their ratios, and each
// one's share of slow batches: one row of the batch tables.
void print_batch_row(const Matchup& m, double tol, const BatchTimes& ours, const BatchTimes& peer,
                     const std::optional<Bracket>& bracket, const BatchTimes& lo,
                     const BatchTimes& hi) {
  std::printf(
      "%-12s %-7s %-7g %9.1f %9.1f %5.0f%% | %-19s %9.1f %9.1f %5.0f%% | %6.2f %6.2f | "
      "%6.2f %6.2f\n",
      m.problem.name, m.ours.name.c_str(), tol, ours.median, ours.best, 100.0 * ours.slow,
      m.peer.name.c_str(), peer.median, peer.best, 100.0 * peer.slow, ours.median / peer.median,
      ours.best / peer.best,
      time_at_equal_error(bracket, lo, hi, &BatchTimes::median) / peer.median,
      time_at_equal_error(bracket, lo, hi, &BatchTimes::best) / peer.best);
}

void print_batch_header(const char* title) {
  std::printf("\n%s\n%-12s %-7s %-7s %9s %9s %6s | %-19s %9s %9s %6s | %13s | %13s\n", title,
              "problem", "ours", "tol", "med[us]", "best[us]", "slow", "peer", "med[us]",
              "best[us]", "slow", "t ratio m / b", "t@=err m / b");
}

// A second measure of the same ratios: the contenders solve in alternating batches in one
// loop, so a slow stretch of the shared machine hits all of them alike (Google Benchmark
// times each contender in its own stretch). Neither is steady on a shared VM: ode45 runs at
// about 31 or about 50 ns per f evaluation from one stretch to the next, odeint moves far
// less (docs/solvers.md); hence median, best and the share of slow batches for each.
// Microseconds of this thread's CPU time per solve: on a loaded machine wall time also
// counts the time the thread waits for a core.
double thread_cpu_microseconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return 1e6 * static_cast<double>(now.tv_sec) + 1e-3 * static_cast<double>(now.tv_nsec);
}

std::vector<BatchTimes> interleaved_microseconds(
    const std::vector<std::function<Outcome()>>& solves) {
  constexpr int kBatches = 15;
  constexpr int kSolvesPerBatch = 20;
  std::vector<std::vector<double>> batches(solves.size());
  for (int batch = 0; batch < kBatches; ++batch) {
    for (std::size_t c = 0; c < solves.size(); ++c) {
      const double start = thread_cpu_microseconds();
      for (int r = 0; r < kSolvesPerBatch; ++r) benchmark::DoNotOptimize(solves[c]());
      batches[c].push_back((thread_cpu_microseconds() - start) / kSolvesPerBatch);
    }
  }
  std::vector<BatchTimes> times;
  for (const auto& b : batches) times.push_back(batch_times(b));
  return times;
}

void print_interleaved(const RowFilter& filter) {
  print_batch_header(
      "The same, timed interleaved (15 alternating batches of 20 solves, CPU time per solve; "
      "slow: share of batches slower than 1.25 x the best)");
  // Named members, not a structured binding: the lambdas below capture them.
  for (const Matchup& m : matchups()) {
    const Problem& problem = m.problem;
    const Contender& ours = m.ours;
    const Contender& peer = m.peer;
    for (double tol : problem.tolerances) {
      if (!filter.keeps(m, tol)) continue;
      const auto bracket = bracket_at_error(problem, ours.solve, peer.solve(tol).end_error);
      const double lo = bracket ? bracket->tol_lo : tol;
      const double hi = bracket ? bracket->tol_hi : tol;
      const auto us = interleaved_microseconds(
          {[&] { return ours.solve(tol); }, [&] { return peer.solve(tol); },
           [&] { return ours.solve(lo); }, [&] { return ours.solve(hi); }});
      print_batch_row(m, tol, us[0], us[1], bracket, us[2], us[3]);
    }
  }
}

void print_summary(const std::map<std::string, BatchTimes>& times, const RowFilter& filter) {
  std::printf(
      "\nrtol = tol, atol = tol (robertson: 1e-6 tol); end error in the max norm, robertson per "
      "species' size; CPU time: medians of %d repetitions\n",
      kRepetitions);
  std::printf(
      "%-12s %-14s %-7s %8s %6s %5s %5s %9s %9s | %-19s %8s %6s %5s %5s %9s %9s | %7s %7s %7s "
      "%7s\n",
      "problem", "ours", "tol", "f evals", "steps", "rej", "jac", "end err", "cpu[us]", "peer",
      "f evals", "steps", "rej", "jac", "end err", "cpu[us]", "f ratio", "t ratio", "f@=err",
      "t@=err");
  struct BatchRow {
    const Matchup* matchup;
    double tol;
    BatchTimes ours, peer, lo, hi;
    std::optional<Bracket> bracket;
  };
  std::vector<BatchRow> batch_rows;
  for (const Matchup& m : matchups()) {
    const auto& [problem, ours, peer] = m;
    for (double tol : problem.tolerances) {
      if (!filter.keeps(m, tol)) continue;
      const Outcome a = ours.solve(tol);
      const Outcome b = peer.solve(tol);
      const auto bracket = bracket_at_error(problem, ours.solve, b.end_error);
      BatchRow row{&m,
                   tol,
                   times_or_nan(times, bench_name(problem, ours.name, tol)),
                   times_or_nan(times, bench_name(problem, peer.name, tol)),
                   {},
                   {},
                   bracket};
      double f_equal = std::nan("");
      if (bracket) {
        f_equal = interpolate(static_cast<double>(bracket->lo.rhs_evaluations),
                              static_cast<double>(bracket->hi.rhs_evaluations), bracket->s);
        row.lo = times_or_nan(times, bench_name(problem, ours.name, bracket->tol_lo));
        row.hi = times_or_nan(times, bench_name(problem, ours.name, bracket->tol_hi));
      }
      const double ta = row.ours.median;
      const double tb = row.peer.median;
      const double t_equal = time_at_equal_error(bracket, row.lo, row.hi, &BatchTimes::median);
      std::printf(
          "%-12s %-14s %-7g %8lld %6ld %5ld %5ld %9.2e %9.1f | %-19s %8lld %6ld %5ld %5ld %9.2e "
          "%9.1f | %7.2f %7.2f %7.2f %7.2f\n",
          problem.name, ours.name.c_str(), tol, static_cast<long long>(a.rhs_evaluations),
          a.accepted, a.rejected, a.jacobians, a.end_error, ta, peer.name.c_str(),
          static_cast<long long>(b.rhs_evaluations), b.accepted, b.rejected, b.jacobians,
          b.end_error, tb,
          static_cast<double>(a.rhs_evaluations) / static_cast<double>(b.rhs_evaluations), ta / tb,
          f_equal / static_cast<double>(b.rhs_evaluations), t_equal / tb);
      batch_rows.push_back(row);
    }
  }
  std::printf(
      "f ratio, t ratio: ours / peer at equal nominal tolerance. f@=err, t@=err: f evaluations "
      "and median CPU time ours needs to reach the peer's end error (log-log interpolation "
      "between the two bracketing tolerances of the problem's sweep in quarter decades, each "
      "benchmarked), divided by the peer's. Target: t@=err <= 1.\n");
  print_batch_header(
      "CPU time per solve over the repetitions: median, best, and slow = share of repetitions "
      "slower than 1.25 x the best; ratios ours / peer by the median (m) and by the best (b)");
  for (const BatchRow& r : batch_rows) {
    print_batch_row(*r.matchup, r.tol, r.ours, r.peer, r.bracket, r.lo, r.hi);
  }
}

// --solve=PROBLEM/NAME:TOL[:N] runs N (default 20) solves of one contender and prints its
// outcome, for counting instructions, which unlike times do not depend on what else the
// machine runs:
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null ode_peers_bench
//            --solve=arenstorf/ode45:1e-10:10
// and again with :30; (I refs of the second - I refs of the first) / 20 is one solve's count,
// start-up cancelled (docs/solvers.md quotes them).
// Returns 0 when argv[1] asks for no such run, 1 after the run, -1 for a malformed request.
int solve_only(int argc, char** argv) {
  constexpr std::string_view kFlag = "--solve=";
  if (argc < 2 || std::string_view(argv[1]).substr(0, kFlag.size()) != kFlag) return 0;
  const std::string request(argv[1] + kFlag.size());
  char problem[32] = {};
  char name[32] = {};
  double tol = 0.0;
  int solves = 20;
  if (std::sscanf(request.c_str(), "%31[^/]/%31[^:]:%lf:%d", problem, name, &tol, &solves) < 3 ||
      !(tol > 0.0) || solves < 1) {
    std::fprintf(stderr,
                 "--solve: expected PROBLEM/NAME:TOL[:N], e.g. arenstorf/ode45:1e-10:20, got "
                 "'%s'\n",
                 request.c_str());
    return -1;
  }
  std::string known;
  for (const auto& [p, ours, peer] : matchups()) {
    for (const Contender* c : {&ours, &peer}) {
      known += std::string(known.empty() ? "" : ", ") + p.name + "/" + c->name;
      if (c->name != name || std::string_view(p.name) != problem) continue;
      Outcome out;
      for (int i = 0; i < solves; ++i) out = c->solve(tol);
      std::printf(
          "%s/%s tol %g: %d solves, each %lld f evaluations, %ld steps, %ld rejected, %ld "
          "Jacobians, end error %.2e\n",
          problem, name, tol, solves, static_cast<long long>(out.rhs_evaluations), out.accepted,
          out.rejected, out.jacobians, out.end_error);
      return 1;
    }
  }
  std::fprintf(stderr, "--solve: unknown contender '%s/%s' (known: %s)\n", problem, name,
               known.c_str());
  return -1;
}

}  // namespace

// --work-precision=FILE writes every contender over its problem's tolerance sweep as CSV
// (f evaluations, steps, end error and microseconds per solve: the best of three batches of
// at least 10 ms each), for the work-precision diagram of bench/plot_work_precision.py. Rows
// follow --benchmark_filter like the tables. Progress goes to stderr, one line per contender.
// Returns 0 when no such flag was given, 1 after writing FILE, -1 when it could not be written.
int work_precision(int argc, char** argv) {
  const std::string path = flag_value(argc, argv, "--work-precision=");
  if (path.empty()) return 0;
  const RowFilter filter(flag_value(argc, argv, "--benchmark_filter="));
  const std::string partial = path + ".partial";  // renamed when complete
  std::FILE* out = std::fopen(partial.c_str(), "w");
  if (out == nullptr) {
    std::fprintf(stderr, "--work-precision: cannot write '%s'\n", partial.c_str());
    return -1;
  }
  std::fprintf(out, "matchup,role,contender,tol,f_evals,steps,rejected,end_error,us_per_solve\n");
  for (const Matchup& m : matchups()) {
    const auto tolerances = sweep_tolerances(m.problem);
    if (std::none_of(tolerances.begin(), tolerances.end(),
                     [&](double tol) { return filter.keeps(m, tol); })) {
      continue;
    }
    const std::string matchup =
        std::string(m.problem.name) + ": " + m.ours.name + " vs " + m.peer.name;
    for (const auto& [role, contender] : {std::pair{"ours", &m.ours}, std::pair{"peer", &m.peer}}) {
      std::fprintf(stderr, "work-precision: %s, %s over %zu tolerances\n", matchup.c_str(),
                   contender->name.c_str(), tolerances.size());
      for (double tol : tolerances) {
        Outcome outcome;
        try {
          outcome = contender->solve(tol);
        } catch (const std::exception& e) {  // e.g. a peer that cannot reach this tolerance
          std::fprintf(stderr, "  tol %g skipped: %s\n", tol, e.what());
          continue;
        }
        double best = std::numeric_limits<double>::infinity();
        for (int batch = 0; batch < 3; ++batch) {
          int solves = 0;
          const auto start = std::chrono::steady_clock::now();
          std::chrono::duration<double, std::micro> took{};
          do {
            benchmark::DoNotOptimize(contender->solve(tol));
            ++solves;
            took = std::chrono::steady_clock::now() - start;
          } while (took.count() < 10'000.0);
          best = std::min(best, took.count() / solves);
        }
        std::fprintf(out, "%s,%s,%s,%.17g,%lld,%ld,%ld,%.17g,%.6g\n", matchup.c_str(), role,
                     contender->name.c_str(), tol, static_cast<long long>(outcome.rhs_evaluations),
                     outcome.accepted, outcome.rejected, outcome.end_error, best);
      }
    }
  }
  const bool written = std::fclose(out) == 0 && std::rename(partial.c_str(), path.c_str()) == 0;
  if (!written) {
    std::fprintf(stderr, "--work-precision: cannot write '%s'\n", path.c_str());
    std::remove(partial.c_str());
    return -1;
  }
  std::fprintf(stderr, "work-precision: wrote %s\n", path.c_str());
  return 1;
}

namespace {

// Instructions per solve of one contender at one tolerance: this binary's --solve under
// callgrind at two solve counts, (I(30) - I(10)) / 20, so start-up (the problems' reference
// solves included) cancels. Counts are kept, a tolerance may serve several rows.
class InstructionCounter {
 public:
  // The binary by its path: under valgrind, /proc/self/exe would name valgrind.
  explicit InstructionCounter(std::filesystem::path dir)
      : dir_(std::move(dir)), self_(std::filesystem::read_symlink("/proc/self/exe")) {}

  double per_solve(const Problem& p, const std::string& name, double tol) {
    const auto key = std::make_tuple(std::string(p.name), name, tol);
    if (const auto it = counted_.find(key); it != counted_.end()) return it->second;
    constexpr int kFew = 10, kMany = 30;
    const double few = total(p, name, tol, kFew);
    const double many = total(p, name, tol, kMany);
    return counted_[key] = (many - few) / (kMany - kFew);
  }

 private:
  double total(const Problem& p, const std::string& name, double tol, int solves) {
    // %.17g: the child solves at exactly this tolerance (sscanf reads it back bit for bit).
    char request[128];
    std::snprintf(request, sizeof request, "--solve=%s/%s:%.17g:%d", p.name, name.c_str(), tol,
                  solves);
    const double count = simverify::bench::instructions({self_.string(), request}, dir_);
    std::fprintf(stderr, "instructions: %s/%s tol %.4g, %d solves: %.0f\n", p.name, name.c_str(),
                 tol, solves, count);
    return count;
  }

  std::filesystem::path dir_;
  std::filesystem::path self_;
  std::map<std::tuple<std::string, std::string, double>, double> counted_;
};

// The value of --instructions (empty: every row), or nullopt when it was not given.
std::optional<std::string> instructions_flag(int argc, char** argv) {
  constexpr std::string_view kFlag = "--instructions";
  std::optional<std::string> value;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg == kFlag) value = "";
    if (arg.starts_with(kFlag) && arg.substr(kFlag.size()).starts_with("=")) {
      value = std::string(arg.substr(kFlag.size() + 1));
    }
  }
  return value;
}

}  // namespace

// --instructions[=FILTER] counts instructions per solve (callgrind: the same on any machine
// and under any load, unlike times) for every row FILTER keeps (a regex on the benchmark
// names, as --benchmark_filter for the tables; default every row, e.g.
// --instructions=arenstorf/ode45_fixed for one matchup): the peer at the row's tolerance,
// ours there and at the two sweep tolerances that bracket the peer's end error, interpolated
// there log-log as f@=err and t@=err are. Issue 19's goal is on that ratio: ode45 at most
// 1.1 times odeint's dopri5 on std::array. Needs valgrind (ci/install-deps --bench); a few
// seconds per count, one line of progress each to stderr.
// Returns 0 when no such flag was given, 1 after the table, -1 on failure.
int instructions_at_equal_error(int argc, char** argv) {
  const auto flag = instructions_flag(argc, argv);
  if (!flag) return 0;
  std::optional<RowFilter> filter;
  try {
    filter.emplace(*flag);
  } catch (const std::regex_error& e) {
    std::fprintf(stderr, "--instructions: '%s' is no regular expression (%s)\n", flag->c_str(),
                 e.what());
    return -1;
  }
  std::vector<std::pair<const Matchup*, double>> rows;
  for (const Matchup& m : matchups()) {
    for (double tol : m.problem.tolerances) {
      if (filter->keeps(m, tol)) rows.emplace_back(&m, tol);
    }
  }
  if (rows.empty()) {
    std::fprintf(stderr,
                 "--instructions: '%s' keeps no row (names as problem/contender/tol:1e-06)\n",
                 flag->c_str());
    return -1;
  }
  if (::access(simverify::bench::kValgrind, X_OK) != 0) {
    std::fprintf(stderr,
                 "--instructions: needs %s (callgrind counts the instructions); install it with "
                 "ci/install-deps --bench (Debian package valgrind)\n",
                 simverify::bench::kValgrind);
    return -1;
  }
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("simverify-ode-peers-instructions-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::printf(
      "Instructions per solve, thousands (callgrind: (I(30 solves) - I(10 solves)) / 20 of "
      "--solve)\n%-12s %-15s %-7s %-19s %9s %9s %7s | %-9s %-9s %5s %9s %9s %9s %7s\n",
      "problem", "ours", "tol", "peer", "peer[k]", "ours[k]", "i ratio", "tol lo", "tol hi", "s",
      "lo[k]", "hi[k]", "@=err[k]", "i@=err");
  try {
    InstructionCounter counter(dir);
    for (const auto& [m, tol] : rows) {
      const Problem& p = m->problem;
      const double peer = counter.per_solve(p, m->peer.name, tol);
      const double ours = counter.per_solve(p, m->ours.name, tol);
      const auto bracket = bracket_at_error(p, m->ours.solve, m->peer.solve(tol).end_error);
      double lo = std::nan(""), hi = std::nan(""), at_error = std::nan("");
      if (bracket) {
        lo = counter.per_solve(p, m->ours.name, bracket->tol_lo);
        hi = counter.per_solve(p, m->ours.name, bracket->tol_hi);
        at_error = interpolate(lo, hi, bracket->s);
      }
      std::printf(
          "%-12s %-15s %-7g %-19s %9.1f %9.1f %7.3f | %-9.4g %-9.4g %5.3f %9.1f %9.1f %9.1f "
          "%7.3f\n",
          p.name, m->ours.name.c_str(), tol, m->peer.name.c_str(), peer / 1e3, ours / 1e3,
          ours / peer, bracket ? bracket->tol_lo : std::nan(""),
          bracket ? bracket->tol_hi : std::nan(""), bracket ? bracket->s : std::nan(""), lo / 1e3,
          hi / 1e3, at_error / 1e3, at_error / peer);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "--instructions: %s\n", e.what());
    std::filesystem::remove_all(dir);
    return -1;
  }
  std::filesystem::remove_all(dir);
  std::printf(
      "i ratio: ours / peer at equal nominal tolerance. i@=err: ours' instructions at the peer's "
      "end error, interpolated log-log between the sweep tolerances tol lo and tol hi whose end "
      "errors bracket it (s: where it lies, 0 at lo, 1 at hi; as f@=err and t@=err), divided by "
      "the peer's. Goal (issue 19): i@=err <= 1.1 for ode45 against odeint_dopri5_array.\n");
  return 1;
}

int main(int argc, char** argv) {
  if (const int solved = solve_only(argc, argv); solved != 0) return solved > 0 ? 0 : 2;
  if (const int counted = instructions_at_equal_error(argc, argv); counted != 0) {
    return counted > 0 ? 0 : 2;
  }
  if (const int written = work_precision(argc, argv); written != 0) return written > 0 ? 0 : 2;
  const RowFilter filter(flag_value(argc, argv, "--benchmark_filter="));
  register_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  BatchRecorder reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  print_summary(reporter.times, filter);
  print_interleaved(filter);
  return 0;
}
