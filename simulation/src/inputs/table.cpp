#include <simverify/simulation/input_signal.hpp>

#include <simverify/core/read_file.hpp>
#include <simverify/core/text.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simverify::simulation {
namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const auto comma = line.find(',', start);
    fields.push_back(trim(line.substr(start, comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return fields;
}

// Header names may be quoted as spreadsheet programs write them: "time","u".
std::string unquote(std::string_view s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return std::string(s);
}

[[noreturn]] void fail(const std::string& path, std::size_t line, const std::string& what) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": " + what);
}

double parse_number(std::string_view field, const std::string& path, std::size_t line,
                    const std::string& column) {
  double value = 0.0;
  const auto* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  if (field.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    fail(path, line,
         "column '" + column + "': '" + core::excerpt(field) + "' is not a finite number");
  }
  return value;
}

// Piecewise linear interpolation through (times_[i], values_[i]).
class TableInput final : public InputSignal {
 public:
  TableInput(std::vector<double> times, std::vector<double> values)
      : times_(std::move(times)), values_(std::move(values)) {}

  [[nodiscard]] InputSample at(double t) const override {
    if (t <= times_.front()) return {values_.front(), 0.0};
    if (t >= times_.back()) return {values_.back(), 0.0};
    // First knot strictly after t: at a knot the right segment applies.
    const auto upper = std::upper_bound(times_.begin(), times_.end(), t);
    const auto i = static_cast<std::size_t>(std::distance(times_.begin(), upper)) - 1;
    const double slope = (values_[i + 1] - values_[i]) / (times_[i + 1] - times_[i]);
    return {values_[i] + slope * (t - times_[i]), slope};
  }
  // Every knot: the slope changes there (or may: a knot on a straight line costs a restart).
  [[nodiscard]] double next_jump(double t) const override {
    const auto upper = std::upper_bound(times_.begin(), times_.end(), t);
    return upper == times_.end() ? std::numeric_limits<double>::infinity() : *upper;
  }

 private:
  std::vector<double> times_;
  std::vector<double> values_;
};

}  // namespace

InputPtr table_input(const std::string& csv_path, const std::string& column) {
  // A regular file of bounded size, opened without blocking: a FIFO or /dev/zero is refused.
  std::istringstream in(core::read_table_file(csv_path, "input table"));

  std::string text;
  std::size_t line_number = 0;
  std::vector<std::string> header;
  while (header.empty() && std::getline(in, text)) {
    ++line_number;
    if (trim(text).empty()) continue;
    for (const auto field : split_fields(text)) header.push_back(unquote(field));
  }
  if (header.empty()) fail(csv_path, line_number, "empty file, expected a header row");
  if (header.size() < 2) {
    fail(csv_path, line_number, "header needs a time column and at least one value column");
  }
  const auto it = std::find(header.begin() + 1, header.end(), column);
  if (it == header.end()) {
    const std::vector<std::string> known(header.begin() + 1, header.end());
    fail(csv_path, line_number,
         "no column '" + column + "'" + core::did_you_mean(column, known) +
             "; columns: " + core::join_excerpt(known));
  }
  if (auto repeated = core::repeated_column(header, column)) fail(csv_path, line_number, *repeated);
  const auto index = static_cast<std::size_t>(std::distance(header.begin(), it));

  std::vector<double> times;
  std::vector<double> values;
  while (std::getline(in, text)) {
    ++line_number;
    if (trim(text).empty()) continue;
    const auto fields = split_fields(text);
    if (fields.size() != header.size()) {
      fail(csv_path, line_number,
           "expected " + std::to_string(header.size()) + " fields like the header, got " +
               std::to_string(fields.size()));
    }
    const double t = parse_number(fields[0], csv_path, line_number, header[0]);
    if (!times.empty() && !(t > times.back())) {
      fail(csv_path, line_number, "time must be strictly increasing");
    }
    times.push_back(t);
    values.push_back(parse_number(fields[index], csv_path, line_number, column));
  }
  if (times.empty()) fail(csv_path, line_number, "no data rows after the header");
  return std::make_shared<TableInput>(std::move(times), std::move(values));
}

}  // namespace simverify::simulation
