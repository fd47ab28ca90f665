#pragma once
// A replication as a table (Def 4.6, Table 4.2): named numeric columns, one row per sample.
// Supports the processing steps of Def 4.10: saving (data dumps, Def 4.8, as CSV and JSON),
// validation, sorting and aggregation.
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace simverify::simulation::processing {

class DataTable {
 public:
  explicit DataTable(std::vector<std::string> columns);

  [[nodiscard]] const std::vector<std::string>& columns() const { return columns_; }
  [[nodiscard]] std::size_t rows() const { return rows_.size(); }
  [[nodiscard]] std::span<const double> row(std::size_t i) const { return rows_[i]; }
  [[nodiscard]] std::size_t column_index(const std::string& name) const;  // throws if unknown
  [[nodiscard]] std::vector<double> column(const std::string& name) const;

  // Appends a row; throws when its length differs from the number of columns.
  void add_row(std::vector<double> values);

  // Sorting (Def 4.10): stable, ascending by the key column (Table 4.2 -> Table 4.3).
  void sort_by(const std::string& key);

  // Validation (Def 4.10, 4.11 "inspecting"): one message per problem found, e.g. NaN or
  // infinite values, and gaps in a time column whose step exceeds `max_gap` (missing samples).
  [[nodiscard]] std::vector<std::string> validate(const std::string& time_column = "",
                                                  double max_gap = 0.0) const;

  // Data dumps (Def 4.8). CSV: a header row, then full-precision numbers (round-trips exactly).
  void write_csv(const std::filesystem::path& path) const;
  void write_json(const std::filesystem::path& path) const;  // {"columns": [...], "rows": [[...]]}
  [[nodiscard]] static DataTable read_csv(const std::filesystem::path& path);

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<double>> rows_;
};

// Aggregation (Def 4.10): rows grouped by the value of `key`, each group reduced column-wise
// to its mean. Groups are returned in ascending key order.
[[nodiscard]] DataTable aggregate_mean(const DataTable& table, const std::string& key);

}  // namespace simverify::simulation::processing
