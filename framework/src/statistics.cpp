#include <simverify/framework/statistics.hpp>

#include <simverify/core/statistics.hpp>
#include <simverify/core/weighted_statistics.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace simverify::framework {
namespace {

// Def 4.17 eq. (4.4): the half width of the two-sided t interval at `level` = 1 - alpha.
double ci_half_width(std::span<const double> v, double level) {
  const core::Interval ci = core::confidence_interval(v, level);
  return 0.5 * (ci.upper - ci.lower);
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
  return core::least_squares_slope(lx, ly);
}

}  // namespace

double compute_statistic(const Statistic& statistic, std::span<const double> values,
                         std::span<const double> axis) {
  if (values.empty()) throw std::invalid_argument("cannot aggregate an empty group");
  using Kind = Statistic::Kind;
  switch (statistic.kind) {
    case Kind::mean: return core::mean(values);
    case Kind::max: return *std::max_element(values.begin(), values.end());
    case Kind::min: return *std::min_element(values.begin(), values.end());
    case Kind::median: return core::quantile(values, 0.5);
    case Kind::std: return core::sample_std(values);
    case Kind::range: {  // back-to-back: the spread of one point's value over the group
      const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
      return *hi - *lo;
    }
    case Kind::quantile: return core::quantile(values, statistic.parameter);
    case Kind::ci_upper: return core::mean(values) + ci_half_width(values, statistic.parameter);
    case Kind::ci_lower: return core::mean(values) - ci_half_width(values, statistic.parameter);
    case Kind::fraction_le: {
      const auto n = std::count_if(values.begin(), values.end(),
                                   [&](double x) { return x <= statistic.parameter; });
      return static_cast<double>(n) / static_cast<double>(values.size());
    }
    case Kind::order: return order(values, axis);
    case Kind::weighted_mean: return core::weighted_mean(values, axis);
    case Kind::weighted_fraction_le:
      return core::weighted_fraction_le(values, axis, statistic.parameter);
    case Kind::weighted_quantile: return core::weighted_quantile(values, axis, statistic.parameter);
  }
  throw std::logic_error("unhandled statistic");
}

}  // namespace simverify::framework
