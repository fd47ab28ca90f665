#include <simverify/simulation/processing/data_table.hpp>

#include <simverify/core/read_file.hpp>
#include <simverify/core/text.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace simverify::simulation::processing {
namespace {

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x);  // shortest round-trip
  return std::string(buffer, end);
}

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) out.push_back(field);
  if (!line.empty() && line.back() == sep) out.emplace_back();
  return out;
}

double parse_field(const std::string& text, const std::filesystem::path& path, std::size_t line,
                   std::size_t column) {
  if (text == "nan") return std::nan("");
  if (text == "inf") return HUGE_VAL;
  if (text == "-inf") return -HUGE_VAL;
  double value = 0.0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr != last || text.empty()) {
    throw std::invalid_argument(path.string() + ":" + std::to_string(line) + ":" +
                                std::to_string(column) + ": expected a number, found '" +
                                core::excerpt(text) + "'");
  }
  return value;
}

}  // namespace

DataTable::DataTable(std::vector<std::string> columns) : columns_(std::move(columns)) {
  if (columns_.empty()) throw std::invalid_argument("a data table needs at least one column");
}

std::size_t DataTable::column_index(const std::string& name) const {
  const auto it = std::find(columns_.begin(), columns_.end(), name);
  if (it == columns_.end()) {
    throw std::invalid_argument("unknown column '" + name + "'" +
                                core::did_you_mean(name, columns_) +
                                "; columns: " + core::join_excerpt(columns_));
  }
  return static_cast<std::size_t>(it - columns_.begin());
}

std::vector<double> DataTable::column(const std::string& name) const {
  const std::size_t j = column_index(name);
  std::vector<double> out;
  out.reserve(rows_.size());
  for (const auto& r : rows_) out.push_back(r[j]);
  return out;
}

void DataTable::add_row(std::vector<double> values) {
  if (values.size() != columns_.size()) {
    throw std::invalid_argument("row has " + std::to_string(values.size()) + " values, table has " +
                                std::to_string(columns_.size()) + " columns");
  }
  rows_.push_back(std::move(values));
}

void DataTable::sort_by(const std::string& key) {
  const std::size_t j = column_index(key);
  std::stable_sort(rows_.begin(), rows_.end(),
                   [j](const auto& a, const auto& b) { return a[j] < b[j]; });
}

std::vector<std::string> DataTable::validate(const std::string& time_column, double max_gap) const {
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    for (std::size_t j = 0; j < columns_.size(); ++j) {
      if (!std::isfinite(rows_[i][j])) {
        problems.push_back("row " + std::to_string(i + 1) + ", column '" + columns_[j] +
                           "': " + format_number(rows_[i][j]));
      }
    }
  }
  if (!time_column.empty()) {
    const std::size_t t = column_index(time_column);
    for (std::size_t i = 1; i < rows_.size(); ++i) {
      const double step = rows_[i][t] - rows_[i - 1][t];
      if (step < 0) {
        problems.push_back("row " + std::to_string(i + 1) + ": time goes backwards (sort first)");
      } else if (max_gap > 0 && step > max_gap) {
        problems.push_back("rows " + std::to_string(i) + "-" + std::to_string(i + 1) + ": gap of " +
                           format_number(step) + " in '" + time_column + "' exceeds " +
                           format_number(max_gap) + " (missing samples)");
      }
    }
  }
  return problems;
}

void DataTable::write_csv(const std::filesystem::path& path) const {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  for (std::size_t j = 0; j < columns_.size(); ++j) out << (j ? "," : "") << columns_[j];
  out << '\n';
  for (const auto& r : rows_) {
    for (std::size_t j = 0; j < r.size(); ++j) out << (j ? "," : "") << format_number(r[j]);
    out << '\n';
  }
}

void DataTable::write_json(const std::filesystem::path& path) const {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  out << "{\"columns\": [";
  for (std::size_t j = 0; j < columns_.size(); ++j)
    out << (j ? ", " : "") << '"' << columns_[j] << '"';
  out << "], \"rows\": [";
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    out << (i ? ", " : "") << '[';
    for (std::size_t j = 0; j < rows_[i].size(); ++j) {
      // JSON has no NaN or infinity: such values are written as null.
      const double x = rows_[i][j];
      out << (j ? ", " : "") << (std::isfinite(x) ? format_number(x) : "null");
    }
    out << ']';
  }
  out << "]}\n";
}

DataTable DataTable::read_csv(const std::filesystem::path& path) {
  std::istringstream in(core::read_table_file(path, "data table"));
  std::string line;
  if (!std::getline(in, line)) throw std::invalid_argument(path.string() + ":1:1: empty file");
  const auto header = split(line, ',');
  for (const auto& name : header) {
    if (auto repeated = core::repeated_column(header, name)) {
      throw std::invalid_argument(path.string() + ":1:1: " + *repeated);
    }
  }
  DataTable table(header);
  std::size_t line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    const auto fields = split(line, ',');
    if (fields.size() != table.columns_.size()) {
      throw std::invalid_argument(path.string() + ":" + std::to_string(line_number) +
                                  ":1: expected " + std::to_string(table.columns_.size()) +
                                  " fields, found " + std::to_string(fields.size()));
    }
    std::vector<double> row;
    for (std::size_t j = 0; j < fields.size(); ++j) {
      row.push_back(parse_field(fields[j], path, line_number, j + 1));
    }
    table.add_row(std::move(row));
  }
  return table;
}

DataTable aggregate_mean(const DataTable& table, const std::string& key) {
  const std::size_t k = table.column_index(key);
  std::map<double, std::pair<std::vector<double>, std::size_t>> groups;
  for (std::size_t i = 0; i < table.rows(); ++i) {
    const auto r = table.row(i);
    auto& [sum, count] = groups[r[k]];
    if (sum.empty()) sum.assign(r.size(), 0.0);
    for (std::size_t j = 0; j < r.size(); ++j) sum[j] += r[j];
    ++count;
  }
  DataTable out(table.columns());
  for (auto& [value, group] : groups) {
    auto& [sum, count] = group;
    for (double& s : sum) s /= static_cast<double>(count);
    out.add_row(std::move(sum));
  }
  return out;
}

}  // namespace simverify::simulation::processing
