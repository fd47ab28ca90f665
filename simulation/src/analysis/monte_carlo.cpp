#include <simverify/simulation/analysis/monte_carlo.hpp>
#include <simverify/simulation/processing/statistics.hpp>

#include <atomic>
#include <stdexcept>
#include <thread>

namespace simverify::simulation::analysis {

std::uint64_t stream_seed(std::uint64_t base, std::uint64_t index) {
  // SplitMix64 (Steele, Lea, Flood 2014) applied twice: mixes base, then base with index.
  auto mix = [](std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  return mix(mix(base) ^ index);
}

double unit_interval(std::uint64_t draw) {
  return static_cast<double>(draw >> 11) * 0x1.0p-53;
}

MonteCarloResult monte_carlo(std::size_t runs, std::uint64_t base_seed,
                             const std::function<double(std::uint64_t)>& measure, double level,
                             int jobs) {
  if (runs < 2) throw std::invalid_argument("Monte Carlo needs at least 2 runs");
  MonteCarloResult result;
  result.samples.resize(runs);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < runs; i = next++) {
      result.samples[i] = measure(stream_seed(base_seed, i));
    }
  };
  {
    std::vector<std::jthread> pool;
    for (int j = 1; j < jobs; ++j) pool.emplace_back(work);
    work();
  }
  result.mean = processing::mean(result.samples);
  result.std = processing::sample_std(result.samples);
  const auto ci = processing::confidence_interval(result.samples, level);
  result.ci_lower = ci.lower;
  result.ci_upper = ci.upper;
  return result;
}

}  // namespace simverify::simulation::analysis
