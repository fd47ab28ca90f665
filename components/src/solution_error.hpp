#pragma once
// Internal: error_end and error_max of a run (format page): the max-norm distance from the
// model's exact solution where it has one (and the input is one it is exact for), else from
// a reference solution computed with `reference_method` at rtol 1e-12, atol 1e-14 -- far
// below any tolerance under test -- through its dense output (reference_solution.hpp).
#include <simverify/simulation/simulator.hpp>

#include <optional>
#include <string>

namespace simverify::components {

struct SolutionError {
  double end = 0.0;  // at the run's end point
  double max = 0.0;  // over every recorded point (when asked for)
  bool from_reference = false;
};

inline constexpr double kReferenceRtol = 1e-12;
inline constexpr double kReferenceAtol = 1e-14;

struct ErrorProblem {
  std::optional<double> constant_input;  // u when constant over the run (exact solutions
                                         // that need a constant input are used only then)
  std::string reference_method;
  // Names the reference problem (everything that shapes x(t) but the run's own method and
  // step control); runs with the same key share one reference solve in this process.
  std::string key;
  bool want_max = true;  // error_max too: needs the run's recorded trajectory
};

// At a time recorded twice (before and after an event's state reset) the closer of the two
// points counts, since the exact solution has one value there.
[[nodiscard]] SolutionError solution_error(const simulation::Simulator& simulator,
                                           const simulation::SimulatorResult& run,
                                           const ErrorProblem& problem);

}  // namespace simverify::components
