#include <simverify/simulation/analysis/monte_carlo.hpp>
#include <simverify/simulation/processing/statistics.hpp>

#include <boost/math/distributions/normal.hpp>

#include <atomic>
#include <cmath>
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

Distribution Distribution::uniform(double low, double high) {
  if (!(low <= high) || !std::isfinite(low) || !std::isfinite(high)) {
    throw std::invalid_argument("uniform: expected [low, high] with low <= high");
  }
  return {Kind::uniform, low, high};
}

Distribution Distribution::normal(double mean, double std) {
  if (!std::isfinite(mean) || !(std > 0.0) || !std::isfinite(std)) {
    throw std::invalid_argument("normal: expected [mean, std] with std > 0");
  }
  return {Kind::normal, mean, std};
}

double Distribution::sample(std::uint64_t draw) const {
  if (kind == Kind::uniform) return a + (b - a) * unit_interval(draw);
  // The midpoint of the 53-bit cell keeps the probability inside (0, 1), where the normal
  // quantile is finite.
  const double probability = (static_cast<double>(draw >> 11) + 0.5) * 0x1.0p-53;
  return boost::math::quantile(boost::math::normal(a, b), probability);
}

double Distribution::mean() const {
  return kind == Kind::uniform ? 0.5 * (a + b) : a;
}

double Distribution::std() const {
  return kind == Kind::uniform ? (b - a) / std::sqrt(12.0) : b;
}

double regression_slope(const std::vector<double>& inputs, const std::vector<double>& outputs) {
  if (inputs.size() != outputs.size() || inputs.size() < 2) {
    throw std::invalid_argument("regression slope needs at least two (input, output) pairs");
  }
  const double x_mean = processing::mean(inputs);
  const double y_mean = processing::mean(outputs);
  double sxy = 0.0, sxx = 0.0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    sxy += (inputs[i] - x_mean) * (outputs[i] - y_mean);
    sxx += (inputs[i] - x_mean) * (inputs[i] - x_mean);
  }
  if (sxx == 0.0) throw std::invalid_argument("regression slope: the inputs do not vary");
  return sxy / sxx;
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
