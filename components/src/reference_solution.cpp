#include "reference_solution.hpp"

#include <simverify/simulation/stepper.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <mutex>
#include <numbers>
#include <utility>

namespace simverify::components {
namespace {

using simulation::Vector;

constexpr int kDegree = ReferenceSolution::kNodes - 1;

// Chebyshev-Lobatto nodes on [0, 1]: polynomial interpolation through them is well
// conditioned, and the barycentric weights are (-1)^k, halved at both ends (Berrut and
// Trefethen 2004, "Barycentric Lagrange interpolation", eq. 5.4).
double node(int k) {
  return 0.5 * (1.0 - std::cos(std::numbers::pi * k / kDegree));
}

double weight(int k) {
  const double sign = k % 2 == 0 ? 1.0 : -1.0;
  return k == 0 || k == kDegree ? 0.5 * sign : sign;
}

}  // namespace

ReferenceSolution::ReferenceSolution(const simulation::Model& model,
                                     simulation::SimulatorSettings settings,
                                     const std::string& method, double rtol, double atol) {
  settings.method = method;
  settings.h = 0.0;
  settings.stepper.rtol = rtol;
  settings.stepper.atol = {atol};
  settings.output_times.clear();
  settings.record_trajectory = false;
  settings.record_outputs = false;
  Vector x;
  settings.on_step = [&](double t_start, double t_end, const simulation::Stepper& dense) {
    if (!(t_end > t_start)) return;  // a step cut to nothing at an event
    Segment s{t_start, t_end, {}};
    s.samples.reserve(kNodes);
    for (int k = 0; k < kNodes; ++k) {
      dense.interpolate(t_start + node(k) * (t_end - t_start), x);
      s.samples.push_back(x);
    }
    segments_.push_back(std::move(s));
  };
  const simulation::SimulatorResult run = simulation::Simulator(model, std::move(settings)).run();
  t_end_ = run.t_end;
  x_end_ = run.x_end;
}

double ReferenceSolution::distance_on(const Segment& s, double t, const Vector& x) const {
  const double theta = (t - s.t_start) / (s.t_end - s.t_start);
  // Barycentric formula of the second kind; at a node it is the sample itself.
  double denominator = 0.0;
  Vector sum = Vector::Zero(x.size());
  for (int k = 0; k < kNodes; ++k) {
    const double d = theta - node(k);
    if (d == 0.0) return (x - s.samples[static_cast<std::size_t>(k)]).lpNorm<Eigen::Infinity>();
    const double c = weight(k) / d;
    denominator += c;
    sum += c * s.samples[static_cast<std::size_t>(k)];
  }
  return (x - sum / denominator).lpNorm<Eigen::Infinity>();
}

double ReferenceSolution::distance(double t, const Vector& x) const {
  if (segments_.empty() || t >= t_end_) return (x - x_end_).lpNorm<Eigen::Infinity>();
  // The first segment ending at or after t, and the next when it starts exactly at t.
  auto it = std::lower_bound(segments_.begin(), segments_.end(), t,
                             [](const Segment& s, double time) { return s.t_end < time; });
  if (it == segments_.end()) return (x - x_end_).lpNorm<Eigen::Infinity>();
  double best = distance_on(*it, std::max(t, it->t_start), x);
  for (++it; it != segments_.end() && it->t_start == t; ++it) {
    best = std::min(best, distance_on(*it, t, x));
  }
  return best;
}

std::shared_ptr<const ReferenceSolution> ReferenceSolution::shared(
    const std::string& key, const std::function<ReferenceSolution()>& solve) {
  // A few problems: a grid usually walks one problem's points before the next one's.
  constexpr std::size_t kKept = 8;
  static std::mutex mutex;
  static std::deque<std::pair<std::string, std::shared_ptr<const ReferenceSolution>>> cache;
  {
    const std::scoped_lock lock(mutex);
    for (const auto& [k, reference] : cache) {
      if (k == key) return reference;
    }
  }
  // Solved outside the lock: threads (--isolation none) on other problems need not wait.
  auto reference = std::make_shared<const ReferenceSolution>(solve());
  const std::scoped_lock lock(mutex);
  cache.emplace_back(key, reference);
  if (cache.size() > kKept) cache.pop_front();
  return reference;
}

}  // namespace simverify::components
