// `compare:`: the distance of a measured vector or time series from a reference (format page,
// "Quality"; lecture Def 5.4, a quality function reduces a measurement to one number).
#include <simverify/framework/compare.hpp>

#include "detail/read_file.hpp"
#include "detail/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kCompareKeys = {"reference", "norm", "tube"};
const std::vector<std::string> kTubeKeys = {"abs", "rel", "time"};
const std::vector<std::string> kReferenceKeys = {"file", "column"};
const std::vector<std::string> kNorms = {"max_abs", "rms", "max_rel"};

CompareError error_at(const Value& v, std::string message) {
  return {v.location, std::move(message)};
}

std::string_view trim_cell(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '"')) {
    s.remove_prefix(1);
  }
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '"')) {
    s.remove_suffix(1);
  }
  return s;
}

struct Cell {
  std::string_view text;
  int column = 1;  // 1-based character column of the cell in its line
};

std::vector<Cell> split_csv(std::string_view line) {
  std::vector<Cell> cells;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == ',') {
      cells.push_back({trim_cell(line.substr(start, i - start)), static_cast<int>(start) + 1});
      start = i + 1;
    }
  }
  return cells;
}

std::optional<double> to_number(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double d = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return d;
}

// Reads one named column (and the `t`/`time` column when present) of a CSV file with a
// header line. Errors in the CSV name the CSV's own line and column.
std::variant<Comparison, CompareError> read_csv(const Value& file_value, const Value& column_value,
                                                const fs::path& base_dir) {
  const fs::path path = base_dir / file_value.as_string();
  // Only a regular file: a device or FIFO (/dev/zero, a pipe) would never end or never come.
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return error_at(file_value, fmt::format("reference file '{}' is {} (resolved relative to "
                                            "the requirement file: {})",
                                            file_value.as_string(),
                                            fs::exists(path, ec) ? "not a regular file" : "missing",
                                            path.string()));
  }
  // Read whole by the one reader of input files: a FIFO swapped in after the check above
  // cannot make us wait, and a huge (or sparse) file is refused unread.
  std::istringstream in;
  try {
    in.str(core::read_table_file(path, "reference file"));
  } catch (const detail::ReadError& e) {
    return error_at(file_value, fmt::format("reference file '{}': {} (resolved relative to the "
                                            "requirement file: {})",
                                            file_value.as_string(), e.reason(), path.string()));
  }
  const std::string& wanted = column_value.as_string();
  Comparison c;
  c.source = path.string();
  std::string line;
  int line_number = 0;
  std::optional<std::size_t> value_column, time_column;
  bool header_seen = false;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string_view view = trim_cell(line);
    if (view.empty() || view.front() == '#') continue;
    const auto cells = split_csv(line);
    if (!header_seen) {
      header_seen = true;
      std::vector<std::string> names;
      for (std::size_t j = 0; j < cells.size(); ++j) {
        names.emplace_back(cells[j].text);
        if (cells[j].text == wanted) value_column = j;
        if (cells[j].text == "t" || cells[j].text == "time") time_column = j;
      }
      if (!value_column) {
        return error_at(
            column_value,
            fmt::format("reference file '{}' has no column '{}'{}; columns: {}",
                        file_value.as_string(), wanted, detail::did_you_mean(wanted, names),
                        detail::join_excerpt(names)));
      }
      // The column compared, and the time column it is read against: by name, a repeated one
      // would silently be its first.
      for (const std::size_t j : {*value_column, time_column.value_or(*value_column)}) {
        if (auto repeated = core::repeated_column(names, names[j])) {
          return error_at(column_value,
                          fmt::format("reference file '{}', line {}: {}", file_value.as_string(),
                                      line_number, *repeated));
        }
      }
      if (time_column == value_column) time_column.reset();
      continue;
    }
    for (const auto j : {value_column, time_column}) {
      if (!j) continue;
      if (*j >= cells.size()) {
        return CompareError{
            {path.string(), line_number, static_cast<int>(line.size()) + 1},
            fmt::format("expected {} comma-separated values, found {}", *j + 1, cells.size())};
      }
      const auto number = to_number(cells[*j].text);
      if (!number) {
        return CompareError{
            {path.string(), line_number, cells[*j].column},
            fmt::format("expected a number, found '{}'", detail::excerpt(cells[*j].text))};
      }
      (j == value_column ? c.reference : c.reference_time).push_back(*number);
    }
  }
  if (c.reference.empty()) {
    return error_at(file_value,
                    fmt::format("reference file '{}' has no data rows", file_value.as_string()));
  }
  for (std::size_t i = 1; i < c.reference_time.size(); ++i) {
    if (!(c.reference_time[i] > c.reference_time[i - 1])) {
      return error_at(file_value, fmt::format("reference file '{}': the time column must increase "
                                              "strictly (row {} after {})",
                                              file_value.as_string(), c.reference_time[i],
                                              c.reference_time[i - 1]));
    }
  }
  return c;
}

std::optional<CompareError> unknown_keys(const Value& map, const std::vector<std::string>& allowed,
                                         const char* what) {
  for (const auto& [key, value] : map.as_map()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      return CompareError{value.key_location(),
                          fmt::format("unknown key '{}' in {}{}; expected one of: {}", key, what,
                                      detail::did_you_mean(key, allowed), detail::join(allowed))};
    }
  }
  return std::nullopt;
}

// Linear interpolation of (t, y) at `at`; `t` increases.
double interpolate(const std::vector<double>& t, const std::vector<double>& y, double at) {
  if (t.size() == 1) return y.front();
  auto hi = std::upper_bound(t.begin(), t.end(), at);
  if (hi == t.begin()) return y.front();
  if (hi == t.end()) return y.back();
  const auto k = static_cast<std::size_t>(hi - t.begin());
  const double s = (at - t[k - 1]) / (t[k] - t[k - 1]);
  return y[k - 1] + s * (y[k] - y[k - 1]);
}

struct Samples {
  const std::vector<double>* time = nullptr;  // nullptr for a plain vector
  const std::vector<double>* values = nullptr;
  std::vector<double> scalar;  // storage when the measure is one number
};

Samples samples_of(const Measure& measured) {
  Samples s;
  if (const auto* d = std::get_if<double>(&measured)) {
    s.scalar = {*d};
    s.values = &s.scalar;
  } else if (const auto* v = std::get_if<std::vector<double>>(&measured)) {
    s.values = v;
  } else {
    const auto& ts = std::get<TimeSeries>(measured);
    if (ts.columns.size() != 1) {
      throw std::invalid_argument(fmt::format(
          "compare needs a time series with one column, found {} ({}); measure one output, "
          "e.g. y.<name>",
          ts.columns.size(), detail::join(ts.names)));
    }
    s.time = &ts.time;
    s.values = &ts.columns.front();
  }
  return s;
}

double norm_of(const std::vector<double>& measured, const std::vector<double>& reference,
               Comparison::Norm norm) {
  double acc = 0.0;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const double d = std::abs(measured[i] - reference[i]);
    switch (norm) {
      case Comparison::Norm::max_abs: acc = std::max(acc, d); break;
      case Comparison::Norm::rms: acc += d * d; break;
      case Comparison::Norm::max_rel: {
        // A zero reference sample is matched only exactly: anything else is infinitely far.
        const double r = std::abs(reference[i]);
        const double rel = r > 0.0 ? d / r : (d == 0.0 ? 0.0 : HUGE_VAL);
        acc = std::max(acc, rel);
        break;
      }
    }
    if (std::isnan(d)) return std::nan("");
  }
  if (norm == Comparison::Norm::rms) acc = std::sqrt(acc / static_cast<double>(measured.size()));
  return acc;
}

// Largest distance of a measured sample outside the tube around the reference. The band at
// time t is the envelope of [r - tol(r), r + tol(r)] over reference samples within
// [t - time, t + time] and the reference interpolated at t (Simulink Test's tolerance tube).
double tube_violation(const std::vector<double>& t, const std::vector<double>& m,
                      const std::vector<double>& rt, const std::vector<double>& r,
                      const Tube& tube) {
  auto tol = [&](double ref) { return tube.abs + tube.rel * std::abs(ref); };
  double worst = 0.0;
  std::size_t compared = 0;
  const double slack = 1e-12 * std::max(1.0, std::abs(rt.back()));
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (t[i] < rt.front() - tube.time - slack || t[i] > rt.back() + tube.time + slack) continue;
    ++compared;
    double lower = HUGE_VAL, upper = -HUGE_VAL;
    if (t[i] >= rt.front() && t[i] <= rt.back()) {
      const double ref = interpolate(rt, r, t[i]);
      lower = ref - tol(ref);
      upper = ref + tol(ref);
    }
    auto j = static_cast<std::size_t>(
        std::lower_bound(rt.begin(), rt.end(), t[i] - tube.time - slack) - rt.begin());
    for (; j < rt.size() && rt[j] <= t[i] + tube.time + slack; ++j) {
      lower = std::min(lower, r[j] - tol(r[j]));
      upper = std::max(upper, r[j] + tol(r[j]));
    }
    if (std::isnan(m[i])) return std::nan("");
    worst = std::max({worst, lower - m[i], m[i] - upper});
  }
  if (compared == 0) {
    throw std::invalid_argument(
        fmt::format("the measured time series [{}, {}] does not overlap the reference [{}, {}]",
                    t.front(), t.back(), rt.front(), rt.back()));
  }
  return worst;
}

}  // namespace

std::optional<Comparison::Norm> norm_named(std::string_view name) {
  for (const auto norm :
       {Comparison::Norm::max_abs, Comparison::Norm::rms, Comparison::Norm::max_rel}) {
    if (name == to_string(norm)) return norm;
  }
  return std::nullopt;
}

const char* to_string(Comparison::Norm norm) {
  switch (norm) {
    case Comparison::Norm::max_abs: return "max_abs";
    case Comparison::Norm::rms: return "rms";
    case Comparison::Norm::max_rel: return "max_rel";
  }
  return "?";
}

std::variant<Comparison, CompareError> parse_comparison(const Value& spec,
                                                        const fs::path& base_dir) {
  if (!spec.is_map()) {
    return error_at(spec, fmt::format("`compare:` must be a mapping {{reference: [..] | {{file, "
                                      "column}}, norm: max_abs | rms | max_rel}}, found {}",
                                      spec.type_name()));
  }
  if (auto e = unknown_keys(spec, kCompareKeys, "compare")) return *e;
  const Value* reference = spec.find("reference");
  if (reference == nullptr) {
    return error_at(spec, "`compare:` needs `reference:` (a list of numbers or {file, column})");
  }
  Comparison c;
  if (reference->is_list()) {
    for (const auto& item : reference->as_list()) {
      if (!item.is_number() || !std::isfinite(item.as_number())) {
        return error_at(
            item, fmt::format("reference values must be finite numbers, found {}", item.str()));
      }
      c.reference.push_back(item.as_number());
    }
    if (c.reference.empty()) return error_at(*reference, "`reference:` is an empty list");
    c.source = "inline";
  } else if (reference->is_number()) {
    c.reference = {reference->as_number()};
    c.source = "inline";
  } else if (reference->is_map()) {
    if (auto e = unknown_keys(*reference, kReferenceKeys, "reference")) return *e;
    const Value* file = reference->find("file");
    const Value* column = reference->find("column");
    if (file == nullptr || !file->is_string() || column == nullptr || !column->is_string()) {
      return error_at(*reference,
                      "a reference from a file reads {file: path.csv, column: name}, both strings");
    }
    auto read = read_csv(*file, *column, base_dir);
    if (auto* e = std::get_if<CompareError>(&read)) return *e;
    c = std::move(std::get<Comparison>(read));
  } else {
    return error_at(*reference,
                    fmt::format("`reference:` must be a list of numbers or {{file: path.csv, "
                                "column: name}}, found {}",
                                reference->type_name()));
  }
  if (const Value* norm = spec.find("norm")) {
    const std::string name = norm->is_string() ? norm->as_string() : norm->str();
    if (const auto named = norm_named(name)) {
      c.norm = *named;
    } else {
      return error_at(*norm, fmt::format("unknown norm '{}'{}; expected one of: {}", name,
                                         detail::did_you_mean(name, kNorms), detail::join(kNorms)));
    }
  }
  if (const Value* tube = spec.find("tube")) {
    if (!tube->is_map()) {
      return error_at(*tube, "`tube:` must be a mapping {abs: a, rel: r, time: t}");
    }
    if (auto e = unknown_keys(*tube, kTubeKeys, "tube")) return *e;
    if (spec.find("norm") != nullptr) {
      return error_at(*tube,
                      "`tube:` and `norm:` exclude each other: a tube yields the largest "
                      "violation, a norm the distance");
    }
    Tube t;
    for (const auto& [key, value] : tube->as_map()) {
      if (!value.is_number() || !(value.as_number() >= 0.0) || !std::isfinite(value.as_number())) {
        return error_at(value, fmt::format("tube '{}' must be a finite number >= 0, found {}", key,
                                           value.str()));
      }
      (key == "abs" ? t.abs : key == "rel" ? t.rel : t.time) = value.as_number();
    }
    c.tube = t;
  }
  return c;
}

double compare_measure(const Measure& measured, const Comparison& c) {
  const Samples s = samples_of(measured);
  const auto& m = *s.values;
  if (m.empty()) throw std::invalid_argument("the measured value is empty");
  if (s.time == nullptr || c.reference_time.empty()) {
    // Sample by sample: both sides must have the same length.
    if (m.size() != c.reference.size()) {
      throw std::invalid_argument(
          fmt::format("the measured value has {} sample(s) but the reference ({}) has {}", m.size(),
                      c.source, c.reference.size()));
    }
    if (c.tube) {
      if (c.tube->time > 0.0 && s.time == nullptr) {
        throw std::invalid_argument("a tube with `time:` needs a time series measure");
      }
      std::vector<double> index(m.size());
      for (std::size_t i = 0; i < m.size(); ++i) index[i] = static_cast<double>(i);
      const auto& t = s.time != nullptr ? *s.time : index;
      return tube_violation(t, m, t, c.reference, *c.tube);
    }
    return norm_of(m, c.reference, c.norm);
  }
  const auto& t = *s.time;
  if (c.tube) return tube_violation(t, m, c.reference_time, c.reference, *c.tube);
  // The measured series, interpolated at the reference times, against the reference.
  const double slack = 1e-9 * std::max(1.0, std::abs(t.back()));
  if (c.reference_time.front() < t.front() - slack || c.reference_time.back() > t.back() + slack) {
    throw std::invalid_argument(
        fmt::format("the reference times [{}, {}] reach outside the measured series [{}, {}]",
                    c.reference_time.front(), c.reference_time.back(), t.front(), t.back()));
  }
  std::vector<double> at(c.reference_time.size());
  for (std::size_t j = 0; j < at.size(); ++j) at[j] = interpolate(t, m, c.reference_time[j]);
  return norm_of(at, c.reference, c.norm);
}

}  // namespace simverify::framework
