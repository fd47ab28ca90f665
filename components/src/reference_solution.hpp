#pragma once
// Internal: a high-accuracy reference solution x_ref(t) on [t0, tf], solved once per
// distinct reference problem and shared by the grid points of one worker process, so a
// convergence study (same model, x0, p, input and tf; different h, method or tolerance)
// pays for one reference solve instead of one per point.
#include <simverify/simulation/simulator.hpp>

#include <memory>
#include <string>
#include <vector>

namespace simverify::components {

class ReferenceSolution {
 public:
  // Solves the problem of `settings` with `method` at rtol/atol (nothing recorded): each
  // accepted step's dense output is sampled at kNodes Chebyshev-Lobatto points, so
  // distance() reproduces it exactly (to rounding) for dense outputs of degree < kNodes
  // (ode45's is of degree 4, cubic Hermite's 3, ode87's septic Hermite 7).
  ReferenceSolution(const simulation::Model& model, simulation::SimulatorSettings settings,
                    const std::string& method, double rtol, double atol);

  // The max-norm distance of x from x_ref(t). At a time where the reference jumps (an event's
  // state reset) the closer side counts; past the reference's end (a terminal event located
  // a little sooner) its end state stands in.
  [[nodiscard]] double distance(double t, const simulation::Vector& x) const;

  // The reference for `key` (the problem: everything but the run's method and step control)
  // from this process's cache, solved by `solve` when it is not there. The cache holds the
  // last few problems, so memory stays bounded over a long run of many problems.
  [[nodiscard]] static std::shared_ptr<const ReferenceSolution> shared(
      const std::string& key, const std::function<ReferenceSolution()>& solve);

  static constexpr int kNodes = 8;

 private:
  struct Segment {
    double t_start = 0.0, t_end = 0.0;
    std::vector<simulation::Vector> samples;  // x_ref at the kNodes nodes of [t_start, t_end]
  };
  [[nodiscard]] double distance_on(const Segment& s, double t, const simulation::Vector& x) const;

  std::vector<Segment> segments_;
  double t_end_ = 0.0;
  simulation::Vector x_end_;
};

}  // namespace simverify::components
