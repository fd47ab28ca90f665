#include "step_response.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>

namespace simverify::framework::step_response {
namespace {

constexpr double kRiseLow = 0.1;  // stepinfo's default RiseTimeLimits [0.1 0.9]
constexpr double kRiseHigh = 0.9;
constexpr double kBand = 0.02;  // stepinfo's default SettlingTimeThreshold

std::optional<double> finite_argument(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

bool relative(std::string_view r) {
  return r == "overshoot" || r == "undershoot" || r == "rise_time" || r == "settling_time";
}

bool any_nan(const std::vector<double>& values) {
  return std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); });
}

// The time at which the straight line from (t0, v0) to (t1, v1) reaches level (v0 and v1 on
// either side of it, v0 != v1).
double crossing(double t0, double v0, double t1, double v1, double level) {
  return t0 + (level - v0) / (v1 - v0) * (t1 - t0);
}

// The first time the normalised response z = (y - y_initial) / change reaches `level`,
// interpolated between the sample below and the first one at or above it (z starts at 0
// and ends at 1, so a crossing of 0 < level < 1 exists).
double first_reaching(const std::vector<double>& t, const std::vector<double>& z, double level) {
  for (std::size_t i = 1; i < z.size(); ++i) {
    if (z[i] >= level) return crossing(t[i - 1], z[i - 1], t[i], z[i], level);
  }
  return std::numeric_limits<double>::infinity();  // unreachable: z.back() == 1
}

// The last time |y - y_final| exceeds band |change|, interpolated to where the line between
// that sample and the next enters the band. +inf when only the final sample lies inside:
// the run ends before the response is seen to settle.
double settling(const std::vector<double>& t, const std::vector<double>& y, double band) {
  const double final_value = y.back();
  const double limit = band * std::abs(final_value - y.front());
  std::size_t k = y.size() - 1;
  while (k > 0 && std::abs(y[k - 1] - final_value) <= limit) --k;
  // k: the first sample of the trailing run inside the band; k == 0 cannot happen (the
  // first sample is |change| > limit away).
  if (k == 0) return 0.0;
  if (k + 1 == y.size()) return std::numeric_limits<double>::infinity();
  const double outside = y[k - 1] - final_value;
  const double edge = outside > 0 ? limit : -limit;
  return crossing(t[k - 1], outside, t[k], y[k] - final_value, edge) - t.front();
}

}  // namespace

const std::vector<std::string>& names() {
  static const std::vector<std::string> all = {"max",       "min",           "peak",
                                               "peak_time", "overshoot",     "undershoot",
                                               "rise_time", "settling_time", "steady_state_error"};
  return all;
}

bool knows(std::string_view reduction) {
  const auto& all = names();
  return std::find(all.begin(), all.end(), reduction) != all.end();
}

bool needs_time(std::string_view reduction) {
  return reduction == "peak_time" || reduction == "rise_time" || reduction == "settling_time";
}

std::optional<std::string> arguments_problem(std::string_view reduction, std::string_view name,
                                             const std::vector<std::string>& args) {
  if (reduction == "settling_time") {
    if (args.size() > 1) {
      return fmt::format(
          "settling_time takes the measure and an optional band (a fraction of the step's "
          "change, default 0.02), e.g. settling_time({}, 0.05)",
          name);
    }
    if (args.size() == 1) {
      const auto band = finite_argument(args.front());
      if (!band || !(*band > 0.0 && *band < 1.0)) {
        return fmt::format(
            "the band of settling_time must be a number between 0 and 1 (a fraction of the "
            "step's change: 0.05 for 5 %), found '{}'",
            args.front());
      }
    }
    return std::nullopt;
  }
  if (reduction == "steady_state_error") {
    if (args.size() != 1) {
      return fmt::format(
          "steady_state_error takes the measure and the target value, e.g. "
          "steady_state_error({}, 10)",
          name);
    }
    if (!finite_argument(args.front())) {
      return fmt::format("the target of steady_state_error must be a finite number, found '{}'",
                         args.front());
    }
    return std::nullopt;
  }
  if (!args.empty()) {
    return fmt::format("{0} takes one measure and nothing else, e.g. {0}({1})", reduction, name);
  }
  return std::nullopt;
}

double reduce(std::string_view reduction, const std::vector<std::string>& args,
              const std::vector<double>* times, const std::vector<double>& y,
              const std::string& what) {
  if (auto problem = arguments_problem(reduction, what, args)) {
    throw std::invalid_argument(*problem);
  }
  if (y.empty()) throw std::invalid_argument(fmt::format("measure '{}' is empty", what));
  if (any_nan(y)) return std::numeric_limits<double>::quiet_NaN();  // must fail, not pass
  if (reduction == "max") return *std::max_element(y.begin(), y.end());
  if (reduction == "min") return *std::min_element(y.begin(), y.end());
  if (needs_time(reduction) && times == nullptr) {
    throw std::invalid_argument(fmt::format(
        "{}({}) reads the time axis: '{}' is a vector, not a time series", reduction, what, what));
  }
  if (y.size() < 2) {
    throw std::invalid_argument(
        fmt::format("{}({}) needs a response of at least 2 samples; '{}' has {}", reduction, what,
                    what, y.size()));
  }
  if (times != nullptr && any_nan(*times)) return std::numeric_limits<double>::quiet_NaN();
  const double initial = y.front();
  const double final_value = y.back();
  if (reduction == "steady_state_error")
    return std::abs(final_value - *finite_argument(args.front()));
  const auto peak = std::max_element(y.begin(), y.end(), [](double a, double b) {
    return std::abs(a) < std::abs(b);  // the first of equal peaks
  });
  if (reduction == "peak") return std::abs(*peak);
  if (reduction == "peak_time") return (*times)[peak - y.begin()] - times->front();
  const double change = final_value - initial;
  if (relative(reduction) && change == 0.0) {
    throw std::invalid_argument(fmt::format(
        "{}({}) is relative to the step's change, and '{}' ends where it starts ({}): no step "
        "to measure against",
        reduction, what, what, initial));
  }
  if (reduction == "overshoot" || reduction == "undershoot") {
    // Percent of the change, in the step's direction (over the final value) or against it
    // (beyond the initial value); 0 when the response never goes there.
    double worst = 0.0;
    for (double v : y) {
      const double beyond = reduction == "overshoot" ? (v - final_value) : (initial - v);
      worst = std::max(worst, beyond / change);
    }
    return 100.0 * worst;
  }
  if (reduction == "rise_time") {
    std::vector<double> z(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) z[i] = (y[i] - initial) / change;
    z.back() = 1.0;  // exactly, whatever the rounding of (y - initial) / change
    return first_reaching(*times, z, kRiseHigh) - first_reaching(*times, z, kRiseLow);
  }
  if (reduction == "settling_time") {
    return settling(*times, y, args.empty() ? kBand : *finite_argument(args.front()));
  }
  throw std::invalid_argument(fmt::format("unknown step-response measure '{}'", reduction));
}

}  // namespace simverify::framework::step_response
