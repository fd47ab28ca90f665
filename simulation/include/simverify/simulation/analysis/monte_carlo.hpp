#pragma once
// Monte Carlo (seed 002): many runs, each with its own independent, reproducible random
// stream, reduced to sample statistics.
#include <cstdint>
#include <functional>
#include <vector>

namespace simverify::simulation::analysis {

// The seed of run `index` in a study seeded with `base`: SplitMix64 of both, so neighbouring
// runs get uncorrelated streams (seeding with 1, 2, 3... directly can correlate some
// generators, seed 002) and the same (base, index) always gives the same stream.
[[nodiscard]] std::uint64_t stream_seed(std::uint64_t base, std::uint64_t index);

// A uniform double in [0, 1) from a 64-bit draw (the top 53 bits): the same on every platform,
// unlike std::uniform_real_distribution.
[[nodiscard]] double unit_interval(std::uint64_t draw);

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
