#pragma once
// Monte Carlo: many runs, each with its own independent, reproducible random
// stream, reduced to sample statistics.
#include <cstdint>
#include <functional>
#include <vector>

namespace simverify::simulation::analysis {

// The seed of run `index` in a study seeded with `base`: SplitMix64 of both, so neighbouring
// runs get uncorrelated streams (seeding with 1, 2, 3... directly can correlate some
// generators) and the same (base, index) always gives the same stream.
[[nodiscard]] std::uint64_t stream_seed(std::uint64_t base, std::uint64_t index);

// A uniform double in [0, 1) from a 64-bit draw (the top 53 bits): the same on every platform,
// unlike std::uniform_real_distribution.
[[nodiscard]] double unit_interval(std::uint64_t draw);

// A perturbed input of a Monte Carlo run: uniform on [a, b] or normal with mean a and
// standard deviation b. Drawn by inversion of the distribution function (Boost.Math for the
// normal quantile), so a draw is the same on every platform and standard library.
struct Distribution {
  enum class Kind { uniform, normal };
  Kind kind = Kind::uniform;
  double a = 0.0, b = 1.0;

  // Throws std::invalid_argument for b < a (uniform) or b <= 0 (normal).
  static Distribution uniform(double low, double high);
  static Distribution normal(double mean, double std);

  [[nodiscard]] double sample(std::uint64_t draw) const;
  [[nodiscard]] double mean() const;
  [[nodiscard]] double std() const;
};

// Slope of the least-squares line through (inputs[i], outputs[i]): the sensitivity of the
// output to one perturbed input as a Monte Carlo sample shows it (a sampling-based
// counterpart of Def 4.24, averaging over the perturbation instead of differencing two
// runs). Throws when fewer than two points or all inputs are equal.
[[nodiscard]] double regression_slope(const std::vector<double>& inputs,
                                      const std::vector<double>& outputs);

struct MonteCarloResult {
  std::vector<double> samples;  // in run order
  double mean = 0.0;
  double std = 0.0;                       // sample standard deviation (n - 1)
  double ci_lower = 0.0, ci_upper = 0.0;  // Student t confidence interval of the mean
};

// Runs `runs` evaluations of `measure(run_seed)` (in parallel on `jobs` threads; the result
// does not depend on `jobs`) and summarizes them at confidence `level`.
[[nodiscard]] MonteCarloResult monte_carlo(std::size_t runs, std::uint64_t base_seed,
                                           const std::function<double(std::uint64_t)>& measure,
                                           double level = 0.95, int jobs = 1);

}  // namespace simverify::simulation::analysis
