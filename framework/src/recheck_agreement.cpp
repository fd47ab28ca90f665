#include "recheck_agreement.hpp"

#include "recorded_measure.hpp"
#include "reporters/series_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <variant>
#include <vector>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// A re-evaluated number agrees with the recorded one to this relative difference. The same
// binary on another CPU may take other code paths in libm (glibc picks FMA variants at run
// time): an ulp (2.2e-16) apart, amplified through a simulation by up to 1e10 still agrees,
// and no verdict turns on the seventh digit.
constexpr double kAgreement = 1e-6;

std::string recheck_text(double d) {
  return fmt::format("{:.17g}", d);
}

std::string vector_disagreement(const Json& recorded, const std::vector<double>& again) {
  if (!recorded.is_array() || recorded.size() != again.size()) {
    return fmt::format("{} values re-evaluated, results.json records {}", again.size(),
                       recorded.dump());
  }
  for (std::size_t i = 0; i < again.size(); ++i) {
    if (!recorded[i].is_number() || !agrees_again(recorded[i].get<double>(), again[i])) {
      return fmt::format("element {} is {} re-evaluated, {} in results.json", i,
                         recheck_text(again[i]), recorded[i].dump());
    }
  }
  return {};
}

// The stored file (recorded_measure.hpp) against the series evaluated again, column by column.
std::string series_disagreement(const StoredSeriesPlace& place, const std::string& name,
                                const Json& recorded, const TimeSeries& again) {
  const Json columns(again.names);
  if (!recorded.is_object() || recorded.value("samples", Json()) != Json(again.time.size()) ||
      recorded.value("columns", Json()) != columns) {
    return fmt::format("{} samples of {} re-evaluated, results.json records {}", again.time.size(),
                       columns.dump(), recorded.dump());
  }
  if (!names_stored_file(recorded)) return {};
  auto read = read_stored_series(place, name, recorded);
  if (const auto* why = std::get_if<std::string>(&read)) return *why;
  const auto& stored = std::get<TimeSeries>(read);
  const fs::path path =
      place.results_dir / detail::series_file(place.requirement_id, place.index, name);
  for (std::size_t j = 0; j <= again.columns.size(); ++j) {
    const std::vector<double>& mine = j == 0 ? again.time : again.columns[j - 1];
    const std::vector<double>& file = j == 0 ? stored.time : stored.columns[j - 1];
    double scale = 0.0;
    for (const double d : file) {
      if (std::isfinite(d)) scale = std::max(scale, std::abs(d));
    }
    for (std::size_t i = 0; i < mine.size(); ++i) {
      if (!agrees_again(file[i], mine[i], scale)) {
        return fmt::format("{}:{}: {} is {} re-evaluated, {} in the file", path.string(), i + 2,
                           j == 0 ? std::string("t") : again.names[j - 1], recheck_text(mine[i]),
                           recheck_text(file[i]));
      }
    }
  }
  return {};
}

}  // namespace

bool agrees_again(double recorded, double again, double scale) {
  if (std::isnan(recorded) || std::isnan(again)) return std::isnan(recorded) && std::isnan(again);
  if (recorded == again) return true;  // also equal infinities
  const double magnitude = std::max({std::abs(recorded), std::abs(again), scale});
  return std::abs(recorded - again) <= kAgreement * magnitude;
}

std::optional<std::string> measures_disagreement(const fs::path& results_dir,
                                                 const std::string& requirement_id,
                                                 std::size_t index, const Json& measures,
                                                 const Measurement& again, std::string_view read) {
  if (!measures.is_object()) return "results.json records no measures";
  for (const auto& [name, value] : again.entries()) {
    const auto recorded = measures.find(name);
    if (recorded == measures.end()) continue;  // not asked for by the run's --series
    std::string why;
    if (const auto* series = std::get_if<TimeSeries>(&value)) {
      if (names_stored_file(*recorded) || name == read) {
        why = series_disagreement({results_dir, requirement_id, index}, name, *recorded, *series);
      }
    } else if (name != read) {
      continue;
    } else if (const auto* d = std::get_if<double>(&value)) {
      if (!recorded->is_number() || !agrees_again(recorded->get<double>(), *d)) {
        why = fmt::format("is {} re-evaluated, {} in results.json", recheck_text(*d),
                          recorded->dump());
      }
    } else {
      why = vector_disagreement(*recorded, std::get<std::vector<double>>(value));
    }
    if (!why.empty()) return fmt::format("its measure {}: {}", name, why);
  }
  // A series the run stored must come again: recheck evaluates with the run's --series.
  for (const auto& [name, recorded] : measures.items()) {
    if (names_stored_file(recorded) && again.find(name) == nullptr) {
      return fmt::format(
          "results.json records the series {}, which evaluating again does not "
          "give",
          name);
    }
  }
  return std::nullopt;
}

}  // namespace simverify::framework
