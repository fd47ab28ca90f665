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
  }
  throw std::logic_error("unhandled statistic");
}

}  // namespace simverify::framework
