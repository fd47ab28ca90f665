#include <simverify/framework/quality.hpp>

#include "measure_call.hpp"
#include "step_response.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>

namespace simverify::framework {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<double> parse_number(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  if (s.front() == '+') s.remove_prefix(1);
  double value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return value;
}

// "name(arg)" -> {name, arg}; nothing when the text is not a call. `arg` may hold further
// arguments after commas ("settling_time(y.x, 0.05)"): split_measure splits them.
std::optional<std::pair<std::string_view, std::string_view>> split_call(std::string_view s) {
  s = trim(s);
  const auto open = s.find('(');
  if (open == std::string_view::npos || s.back() != ')') return std::nullopt;
  return std::pair{trim(s.substr(0, open)), trim(s.substr(open + 1, s.size() - open - 2))};
}

}  // namespace

bool Threshold::satisfied(double quality) const {
  if (std::isnan(quality)) return false;
  return relation == Relation::at_least ? quality >= bound : quality <= bound;
}

double Threshold::margin(double quality) const {
  return relation == Relation::at_least ? quality - bound : bound - quality;
}

std::string Threshold::str() const {
  return fmt::format("{} {}", relation == Relation::at_least ? ">=" : "<=", bound);
}

std::optional<Threshold> Threshold::parse(std::string_view text) {
  text = trim(text);
  Threshold t;
  if (text.starts_with(">=")) {
    t.relation = Relation::at_least;
  } else if (text.starts_with("<=")) {
    t.relation = Relation::at_most;
  } else {
    return std::nullopt;
  }
  const auto bound = parse_number(text.substr(2));
  if (!bound || !std::isfinite(*bound)) return std::nullopt;
  t.bound = *bound;
  return t;
}

std::string Statistic::str() const {
  switch (kind) {
    case Kind::mean: return "mean";
    case Kind::max: return "max";
    case Kind::min: return "min";
    case Kind::median: return "median";
    case Kind::std: return "std";
    case Kind::range: return "range";
    case Kind::order: return "order";
    case Kind::quantile: return fmt::format("quantile({})", parameter);
    case Kind::ci_upper: return fmt::format("ci_upper({})", parameter);
    case Kind::ci_lower: return fmt::format("ci_lower({})", parameter);
    case Kind::fraction_le: return fmt::format("fraction(<= {})", parameter);
    case Kind::weighted_mean: return "weighted_mean";
    case Kind::weighted_fraction_le: return fmt::format("weighted_fraction(<= {})", parameter);
    case Kind::weighted_quantile: return fmt::format("weighted_quantile({})", parameter);
  }
  return "?";
}

std::optional<Statistic> Statistic::parse(std::string_view text) {
  text = trim(text);
  static constexpr std::pair<std::string_view, Kind> kPlain[] = {
      {"mean", Kind::mean},   {"max", Kind::max},
      {"min", Kind::min},     {"median", Kind::median},
      {"std", Kind::std},     {"range", Kind::range},
      {"order", Kind::order}, {"weighted_mean", Kind::weighted_mean}};
  for (const auto& [name, kind] : kPlain) {
    if (text == name) return Statistic{kind, 0.0};
  }
  const auto call = split_call(text);
  if (!call) return std::nullopt;
  const auto [name, arg] = *call;
  if (name == "fraction" || name == "weighted_fraction") {
    if (!arg.starts_with("<=")) return std::nullopt;
    const auto x = parse_number(arg.substr(2));
    if (!x) return std::nullopt;
    return Statistic{name == "fraction" ? Kind::fraction_le : Kind::weighted_fraction_le, *x};
  }
  const auto p = parse_number(arg);
  if (!p || !(*p > 0.0 && *p < 1.0)) return std::nullopt;
  if (name == "quantile") return Statistic{Kind::quantile, *p};
  if (name == "weighted_quantile") return Statistic{Kind::weighted_quantile, *p};
  if (name == "ci_upper") return Statistic{Kind::ci_upper, *p};
  if (name == "ci_lower") return Statistic{Kind::ci_lower, *p};
  return std::nullopt;
}

namespace {

const std::vector<double>* measured_numbers(const Measure& m, const TimeSeries** series) {
  if (const auto* v = std::get_if<std::vector<double>>(&m)) return v;
  if (const auto* ts = std::get_if<TimeSeries>(&m)) *series = ts;
  return nullptr;
}

// times: the series' time axis, null for a vector or scalar.
double apply_reduction(const MeasureCall& call, const std::vector<double>* times,
                       const std::vector<double>& values) {
  const std::string& fn = call.reduction;
  const std::string& what = call.name;
  if (step_response::knows(fn)) {
    return step_response::reduce(fn, call.arguments, times, values, what);
  }
  if (!call.arguments.empty()) {
    throw std::invalid_argument(
        fmt::format("{0} takes one measure and nothing else, e.g. {0}({1})", fn, what));
  }
  if (values.empty()) throw std::invalid_argument(fmt::format("measure '{}' is empty", what));
  if (fn == "final") return values.back();
  if (fn == "max_abs") {
    double m = 0;
    for (double v : values) {
      if (std::isnan(v)) return v;  // std::max would skip it: a NaN sample must fail, not pass
      m = std::max(m, std::abs(v));
    }
    return m;
  }
  if (fn == "rms") {
    double s = 0;
    for (double v : values) s += v * v;
    return std::sqrt(s / static_cast<double>(values.size()));
  }
  throw std::invalid_argument(fmt::format("unknown measure function '{}'; known: {}", fn,
                                          fmt::join(measure_reductions(), ", ")));
}

// The RMS over time of a sampled signal, sqrt(1/(tN - t0) * integral of y^2 dt), the integral
// by the trapezoidal rule: an adaptive solver samples unevenly, and the plain mean over
// samples weighs each sample, not each second (ISO 2631's RMS is over time). A series without
// duration falls back to the samples' RMS.
double rms_over_time(const std::vector<double>& time, const std::vector<double>& y) {
  const double duration = time.empty() ? 0.0 : time.back() - time.front();
  if (!(duration > 0.0)) return apply_reduction(MeasureCall{"rms", "", {}}, nullptr, y);
  double integral = 0.0;
  for (std::size_t i = 0; i + 1 < y.size(); ++i) {
    integral += 0.5 * (time[i + 1] - time[i]) * (y[i] * y[i] + y[i + 1] * y[i + 1]);
  }
  return std::sqrt(integral / duration);
}

}  // namespace

const std::vector<std::string>& measure_reductions() {
  static const std::vector<std::string> reductions = [] {
    std::vector<std::string> all = {"final", "max_abs", "rms"};
    for (const auto& name : step_response::names()) all.push_back(name);
    return all;
  }();
  return reductions;
}

MeasureCall split_measure(std::string_view measure) {
  const auto call = split_call(measure);
  if (!call) return {"", std::string(trim(measure)), {}};
  std::vector<std::string> parts;
  std::string_view rest = call->second;
  for (auto comma = rest.find(','); comma != std::string_view::npos; comma = rest.find(',')) {
    parts.emplace_back(trim(rest.substr(0, comma)));
    rest.remove_prefix(comma + 1);
  }
  parts.emplace_back(trim(rest));
  MeasureCall out{std::string(call->first), std::move(parts.front()), {}};
  out.arguments.assign(std::make_move_iterator(parts.begin() + 1),
                       std::make_move_iterator(parts.end()));
  return out;
}

std::optional<std::string> reduction_arguments_problem(std::string_view measure) {
  const MeasureCall call = split_measure(measure);
  if (call.reduction.empty()) return std::nullopt;
  if (step_response::knows(call.reduction)) {
    return step_response::arguments_problem(call.reduction, call.name, call.arguments);
  }
  const auto& reductions = measure_reductions();
  if (std::find(reductions.begin(), reductions.end(), call.reduction) == reductions.end()) {
    return std::nullopt;
  }
  if (!call.arguments.empty()) {
    return fmt::format("{0} takes one measure and nothing else, e.g. {0}({1})", call.reduction,
                       call.name);
  }
  return std::nullopt;
}

double evaluate_measure(const Measurement& measurement, const std::string& measure) {
  const MeasureCall call = split_measure(measure);
  const std::string& name = call.name;
  const Measure* m = measurement.find(name);
  if (m == nullptr) {
    throw std::invalid_argument(fmt::format("the component did not measure '{}'", name));
  }
  if (call.reduction.empty()) {
    if (const auto* d = std::get_if<double>(m)) return *d;
    throw std::invalid_argument(fmt::format(
        "measure '{0}' is not a number: compare it with a reference (`compare:`) or reduce "
        "it with rms({0}), max_abs({0}) or final({0})",
        name));
  }
  const TimeSeries* series = nullptr;
  if (const auto* v = measured_numbers(*m, &series)) return apply_reduction(call, nullptr, *v);
  if (series != nullptr) {
    if (series->columns.size() != 1) {
      throw std::invalid_argument(
          fmt::format("time series '{}' has {} columns; name one", name, series->columns.size()));
    }
    if (call.reduction == "rms" && call.arguments.empty() && !series->columns.front().empty()) {
      return rms_over_time(series->time, series->columns.front());
    }
    return apply_reduction(call, &series->time, series->columns.front());
  }
  return apply_reduction(call, nullptr, {std::get<double>(*m)});
}

std::string_view measured_name(const Quality& quality) {
  if (quality.comparison) return quality.measure;
  if (const auto call = split_call(quality.measure)) {
    return trim(call->second.substr(0, call->second.find(',')));
  }
  return trim(quality.measure);
}

std::string nan_quality_reason(const Measurement& measurement, const Quality& quality) {
  std::string reason = "the quality is NaN";
  const std::string name(measured_name(quality));
  const Measure* m = measurement.find(name);
  if (m == nullptr) return reason;
  const auto first_nan = [](const std::vector<double>& v) {
    return std::find_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }) - v.begin();
  };
  if (const auto* x = std::get_if<double>(m); x != nullptr && std::isnan(*x)) {
    return reason + ": " + name + " is NaN";
  }
  if (const auto* v = std::get_if<std::vector<double>>(m)) {
    if (const auto i = static_cast<std::size_t>(first_nan(*v)); i < v->size()) {
      return fmt::format("{}: {} is NaN at index {}", reason, name, i);
    }
  }
  if (const auto* series = std::get_if<TimeSeries>(m)) {
    for (std::size_t j = 0; j < series->columns.size(); ++j) {
      const auto& column = series->columns[j];
      if (const auto i = static_cast<std::size_t>(first_nan(column)); i < column.size()) {
        const std::string column_name = series->columns.size() == 1 ? name : series->names[j];
        return i < series->time.size()
                   ? fmt::format("{}: {} is NaN at index {} (t = {:g})", reason, column_name, i,
                                 series->time[i])
                   : fmt::format("{}: {} is NaN at index {}", reason, column_name, i);
      }
    }
  }
  return reason;
}

double point_value(const Measurement& measurement, const Quality& quality) {
  if (!quality.comparison) return evaluate_measure(measurement, quality.measure);
  const Measure* m = measurement.find(quality.measure);
  if (m == nullptr) {
    throw std::invalid_argument(fmt::format("the component did not measure '{}'", quality.measure));
  }
  return compare_measure(*m, *quality.comparison);
}

}  // namespace simverify::framework
