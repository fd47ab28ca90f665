#include <simverify/core/weighted_statistics.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace simverify::core {
namespace {

std::vector<double> probabilities(std::span<const double> values, std::span<const double> weights) {
  if (values.size() != weights.size()) {
    throw std::logic_error("weighted statistic: one weight per value needed");
  }
  return normalized_weights(weights);
}

}  // namespace

std::vector<double> normalized_weights(std::span<const double> weights) {
  if (weights.empty()) throw std::invalid_argument("a weighted statistic needs at least 1 value");
  double sum = 0.0;
  for (const double w : weights) {
    if (!std::isfinite(w) || w < 0.0) {
      throw std::invalid_argument("weights must be finite and >= 0, found " + std::to_string(w));
    }
    sum += w;
  }
  if (!(sum > 0.0)) throw std::invalid_argument("the weights are all zero");
  std::vector<double> p(weights.begin(), weights.end());
  for (double& x : p) x /= sum;
  return p;
}

double weighted_mean(std::span<const double> values, std::span<const double> weights) {
  const auto p = probabilities(values, weights);
  return std::inner_product(p.begin(), p.end(), values.begin(), 0.0);
}

double weighted_fraction_le(std::span<const double> values, std::span<const double> weights,
                            double x) {
  const auto p = probabilities(values, weights);
  double f = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) f += values[i] <= x ? p[i] : 0.0;
  return f;
}

double weighted_quantile(std::span<const double> values, std::span<const double> weights,
                         double q) {
  if (!(q > 0.0 && q <= 1.0)) throw std::invalid_argument("weighted quantile q must lie in (0, 1]");
  const auto p = probabilities(values, weights);
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  // Cumulative sums within 1e-12 below q count as reaching it, so round-off in the weights
  // (0.001 + 0.049 != 0.05 in binary) does not skip a value.
  double cumulative = 0.0;
  for (const std::size_t i : order) {
    cumulative += p[i];
    if (cumulative >= q - 1e-12) return values[i];
  }
  return values[order.back()];
}

}  // namespace simverify::core
