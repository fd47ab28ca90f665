#include <simverify/framework/statistics.hpp>

#include <fmt/format.h>
#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace simverify::framework {
namespace {

double mean(std::span<const double> v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// Sample standard deviation, Def 4.17 eq. (4.3) (divisor n - 1).
double sample_std(std::span<const double> v) {
  if (v.size() < 2) throw std::invalid_argument("std needs at least 2 values");
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

// Linear interpolation between order statistics (Hyndman-Fan type 7, numpy's default).
double quantile(std::span<const double> v, double q) {
  std::vector<double> sorted(v.begin(), v.end());
  std::sort(sorted.begin(), sorted.end());
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

// Def 4.17 eq. (4.4): mean +- t(n-1, 1 - alpha/2) s / sqrt(n), two-sided at `level` = 1 - alpha.
double ci_half_width(std::span<const double> v, double level) {
  if (v.size() < 2) throw std::invalid_argument("a confidence interval needs at least 2 values");
  const boost::math::students_t t_dist(static_cast<double>(v.size() - 1));
  const double t = boost::math::quantile(t_dist, 1.0 - (1.0 - level) / 2.0);
  return t * sample_std(v) / std::sqrt(static_cast<double>(v.size()));
}

// Observed convergence order: slope of the least-squares line through (log axis, log value).
double order(std::span<const double> v, std::span<const double> axis) {
  if (axis.size() != v.size()) throw std::logic_error("order: axis and values differ in size");
  if (v.size() < 2) throw std::invalid_argument("order needs at least 2 points along the axis");
  std::vector<double> lx, ly;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!(v[i] > 0.0) || !(axis[i] > 0.0)) {
      throw std::invalid_argument(fmt::format(
          "order needs positive values and axis coordinates, found {} at {}", v[i], axis[i]));
    }
    lx.push_back(std::log(axis[i]));
    ly.push_back(std::log(v[i]));
  }
  const double mx = mean(lx), my = mean(ly);
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < lx.size(); ++i) {
    sxy += (lx[i] - mx) * (ly[i] - my);
    sxx += (lx[i] - mx) * (lx[i] - mx);
  }
  if (sxx == 0.0) throw std::invalid_argument("order needs distinct axis values");
  return sxy / sxx;
}

// The weights of a group divided by their sum (the cases' probabilities when the weights
// are relative frequencies); each must be finite and >= 0 and their sum positive.
std::vector<double> normalized_weights(std::span<const double> w, std::size_t n) {
  if (w.size() != n) throw std::logic_error("weighted statistic: one weight per value needed");
  double sum = 0.0;
  for (double x : w) {
    if (!(x >= 0.0) || !std::isfinite(x)) {
      throw std::invalid_argument(fmt::format("weights must be finite and >= 0, found {}", x));
    }
    sum += x;
  }
  if (!(sum > 0.0)) throw std::invalid_argument("the weights of a group are all zero");
  std::vector<double> out(w.begin(), w.end());
  for (double& x : out) x /= sum;
  return out;
}

// sum_i w_i x_i: the expectation over cases of probability w_i (the seed's weighted
// probability of success when x_i is each case's success rate).
double weighted_mean(std::span<const double> v, std::span<const double> w) {
  const auto p = normalized_weights(w, v.size());
  double m = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) m += p[i] * v[i];
  return m;
}

double weighted_fraction_le(std::span<const double> v, std::span<const double> w, double x) {
  const auto p = normalized_weights(w, v.size());
  double f = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) f += v[i] <= x ? p[i] : 0.0;
  return f;
}

// The inverse of the weighted distribution function F(x) = sum_{x_i <= x} w_i: the smallest
// value whose cumulative weight reaches q (with equal weights numpy's 'inverted_cdf').
// Cumulative sums within 1e-12 below q count as reaching it, so round-off in the weights
// (0.001 + 0.049 != 0.05) does not skip a value.
double weighted_quantile(std::span<const double> v, std::span<const double> w, double q) {
  const auto p = normalized_weights(w, v.size());
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  double cumulative = 0.0;
  for (std::size_t i : order) {
    cumulative += p[i];
    if (cumulative >= q - 1e-12) return v[i];
  }
  return v[order.back()];
}

}  // namespace

double compute_statistic(const Statistic& statistic, std::span<const double> values,
                         std::span<const double> axis) {
  if (values.empty()) throw std::invalid_argument("cannot aggregate an empty group");
  using Kind = Statistic::Kind;
  switch (statistic.kind) {
    case Kind::mean: return mean(values);
    case Kind::max: return *std::max_element(values.begin(), values.end());
    case Kind::min: return *std::min_element(values.begin(), values.end());
    case Kind::median: return quantile(values, 0.5);
    case Kind::std: return sample_std(values);
    case Kind::quantile: return quantile(values, statistic.parameter);
    case Kind::ci_upper: return mean(values) + ci_half_width(values, statistic.parameter);
    case Kind::ci_lower: return mean(values) - ci_half_width(values, statistic.parameter);
    case Kind::fraction_le: {
      const auto n = std::count_if(values.begin(), values.end(),
                                   [&](double x) { return x <= statistic.parameter; });
      return static_cast<double>(n) / static_cast<double>(values.size());
    }
    case Kind::order: return order(values, axis);
    case Kind::weighted_mean: return weighted_mean(values, axis);
    case Kind::weighted_fraction_le: return weighted_fraction_le(values, axis, statistic.parameter);
    case Kind::weighted_quantile: return weighted_quantile(values, axis, statistic.parameter);
  }
  throw std::logic_error("unhandled statistic");
}

}  // namespace simverify::framework
