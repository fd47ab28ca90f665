#pragma once
// Internal: error_end and error_max of a run (format page): the max-norm distance from the
// model's exact solution where it has one (and the input is one it is exact for), else from
// a reference solution computed with `reference_method` at rtol 1e-12, atol 1e-14 --
// far below any tolerance under test -- on the same times through dense output.
#include <simverify/simulation/simulator.hpp>

#include <optional>
#include <string>

namespace simverify::components {

struct SolutionError {
  double end = 0.0;  // at the run's end point
  double max = 0.0;  // over every recorded point
  bool from_reference = false;
};

inline constexpr double kReferenceRtol = 1e-12;
inline constexpr double kReferenceAtol = 1e-14;

// constant_input: the value of u when it is constant over the run (exact solutions that
// need a constant input are used only then). At a time recorded twice (before and after
// an event's state reset) the closer of the two points counts, since the exact solution
// has one value there.
[[nodiscard]] SolutionError solution_error(const simulation::Simulator& simulator,
                                           const simulation::SimulatorResult& run,
                                           std::optional<double> constant_input,
                                           const std::string& reference_method);

}  // namespace simverify::components
