#include "recorded_measure.hpp"

#include "measure_call.hpp"

#include "detail/json.hpp"
#include "detail/read_file.hpp"
#include "detail/text.hpp"
#include "reporters/series_writer.hpp"

#include <simverify/framework/quality.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;

std::optional<double> stored_number(std::string_view text) {
  double d = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return d;
}

// "t,<names>", then one row of numbers per sample (series_csv).
std::variant<TimeSeries, std::string> parse_stored_series(const fs::path& path,
                                                          std::string_view text,
                                                          std::vector<std::string> names) {
  std::string header = "t";
  for (const auto& name : names) header += "," + name;
  const std::size_t width = names.size() + 1;
  std::vector<std::vector<double>> columns(width);
  std::size_t line = 0;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    const std::string_view row = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (++line == 1) {
      if (row != header) {
        return fmt::format("{}:1: the columns are {}, results.json records {}", path.string(),
                           detail::excerpt(row), detail::excerpt(header));
      }
      continue;
    }
    std::size_t column = 0;
    bool numbers = true;
    for (std::size_t start = 0; numbers && start <= row.size(); ++column) {
      const std::size_t comma = std::min(row.find(',', start), row.size());
      const auto number = stored_number(row.substr(start, comma - start));
      numbers = column < width && number.has_value();
      if (numbers) columns[column].push_back(*number);
      start = comma + 1;
    }
    if (!numbers || column != width) {
      return fmt::format("{}:{}: expected {} numbers", path.string(), line, width);
    }
  }
  if (line == 0) return fmt::format("{}: empty, expected the columns {}", path.string(), header);
  TimeSeries series;
  series.time = std::move(columns.front());
  series.names = std::move(names);
  series.columns.assign(std::make_move_iterator(columns.begin() + 1),
                        std::make_move_iterator(columns.end()));
  return series;
}

}  // namespace

std::variant<TimeSeries, std::string> read_stored_series(const StoredSeriesPlace& place,
                                                         const std::string& name,
                                                         const ResultsJson& recorded) {
  const fs::path expected = detail::series_file(place.requirement_id, place.index, name);
  const auto file = recorded.find("file");
  if (file == recorded.end() || !file->is_string() ||
      file->get<std::string>() != expected.generic_string() || !stays_inside(expected)) {
    return fmt::format("results.json names the file {}, simverify writes {}",
                       file == recorded.end() ? std::string("null") : file->dump(),
                       expected.generic_string());
  }
  const auto columns = recorded.find("columns");
  const auto samples = recorded.find("samples");
  std::vector<std::string> names;
  if (columns != recorded.end() && columns->is_array()) {
    for (const auto& c : *columns) {
      if (!c.is_string()) break;
      names.push_back(c.get<std::string>());
    }
  }
  if (columns == recorded.end() || !columns->is_array() || names.size() != columns->size() ||
      samples == recorded.end() || !samples->is_number_unsigned()) {
    return fmt::format("its entry {} lacks \"samples\" (a count) or \"columns\" (names)",
                       recorded.dump());
  }
  const fs::path path = place.results_dir / expected;
  std::error_code ec;
  if (const auto type = fs::symlink_status(path, ec).type(); type != fs::file_type::regular) {
    std::string kind = detail::special_kind(type);
    if (type == fs::file_type::directory) kind = "a folder";
    return fmt::format("its file {} is {}", path.string(), kind.empty() ? "missing" : kind);
  }
  std::string text;
  try {
    text = detail::read_regular_file(path, "series", detail::kMaxTableBytes);
  } catch (const detail::ReadError& e) {
    return e.what();
  }
  auto read = parse_stored_series(path, text, std::move(names));
  if (const auto* series = std::get_if<TimeSeries>(&read);
      series != nullptr && series->time.size() != samples->get<std::size_t>()) {
    return fmt::format("{} holds {} samples, results.json records {}", path.string(),
                       series->time.size(), samples->get<std::size_t>());
  }
  return read;
}

bool names_stored_file(const ResultsJson& measure) {
  return measure.is_object() && measure.contains("file") && !measure["file"].is_null();
}

bool stays_inside(const fs::path& relative) {
  return std::none_of(relative.begin(), relative.end(), [](const fs::path& part) {
    return part.empty() || part == "." || part == ".." || part.has_root_path();
  });
}

bool is_number_list(const ResultsJson& x) {
  return x.is_array() && !x.empty() &&
         std::all_of(x.begin(), x.end(), [](const ResultsJson& e) { return e.is_number(); });
}

std::variant<std::monostate, double, std::string> value_from_recorded(
    const ResultsJson& point, const std::string& measure, const Comparison* comparison,
    const std::string& requirement_id, const fs::path* results_dir) {
  const std::string name = split_measure(measure).name;
  if (name.empty()) return {};  // no measure recorded for the requirement: nothing to decide by
  const auto measures = point.find("measures");
  const bool listed = measures != point.end() && measures->is_object();
  const auto found = listed ? measures->find(name) : ResultsJson::const_iterator();
  // The run writes every measure the quality reads, whatever --series says.
  if (!listed || found == measures->end()) {
    return fmt::format("results.json records no measure {} for it", name);
  }
  const ResultsJson& recorded = *found;
  const auto all_numbers = [](const ResultsJson& x) {
    return std::all_of(x.begin(), x.end(), [](const ResultsJson& e) { return e.is_number(); });
  };
  Measurement measurement;
  if (recorded.is_number()) {
    measurement.set(name, recorded.get<double>());
  } else if (recorded.is_array() && all_numbers(recorded)) {
    measurement.set(name, recorded.get<std::vector<double>>());
  } else if (recorded.is_null() || recorded.is_array()) {
    return {};  // a NaN or infinity is written as null: not the run's number again
  } else if (!recorded.is_object() || !recorded.contains("file")) {
    return fmt::format("its measure {} is recorded as {}, not as a number, list or series", name,
                       detail::json_in_sentence(recorded));
  } else {
    const auto index = point.find("index");
    if (results_dir == nullptr || index == point.end() || !index->is_number_unsigned()) return {};
    const StoredSeriesPlace place{*results_dir, requirement_id, index->get<std::size_t>()};
    if (!names_stored_file(recorded)) {
      // Not stored (--series none), so nothing to decide from; but a run that stored nothing
      // left no file either.
      const fs::path file = *results_dir / detail::series_file(requirement_id, place.index, name);
      std::error_code ec;
      if (fs::symlink_status(file, ec).type() == fs::file_type::not_found) return {};
      return fmt::format("results.json says its series {} was not stored, but {} is there", name,
                         file.string());
    }
    auto stored = read_stored_series(place, name, recorded);
    if (auto* why = std::get_if<std::string>(&stored)) return std::move(*why);
    measurement.set(name, std::move(std::get<TimeSeries>(stored)));
  }
  try {
    if (comparison == nullptr) return evaluate_measure(measurement, measure);
    return compare_measure(*measurement.find(name), *comparison);
  } catch (const std::invalid_argument& e) {
    return fmt::format("its measures give no value ({})", e.what());
  }
}

}  // namespace simverify::framework
