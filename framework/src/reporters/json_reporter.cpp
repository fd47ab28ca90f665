// results.json: the machine-readable record of a run (format page, "Results").
#include <simverify/framework/reporters/reporters.hpp>

#include "detail/atomic_file.hpp"
#include "detail/json.hpp"

#include <fmt/format.h>

#include <fstream>

namespace simverify::framework {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

class JsonReporter final : public RunListener {
 public:
  explicit JsonReporter(fs::path out_dir) : out_dir_(std::move(out_dir)) {}

  void run_started(const RunInfo& info) override { info_ = info; }

  void run_finished(const RunSummary& summary,
                    const std::vector<RequirementResult>& results) override {
    Json doc;
    doc["format"] = "simverify.results/1";
    doc["releasable"] = summary.releasable;
    doc["complete"] = summary.complete;
    doc["summary"] = {{"passed", summary.passed},
                      {"failed", summary.failed},
                      {"error", summary.errors},
                      {"skipped", summary.skipped},
                      {"seconds", summary.seconds},
                      {"jobs", info_.jobs},
                      {"shard", info_.shard.empty() ? Json(nullptr) : Json(info_.shard)}};
    Json list = Json::array();
    for (const auto& result : results) list.push_back(requirement_json(result));
    doc["requirements"] = std::move(list);
    detail::write_atomically(out_dir_ / "results.json", doc.dump(1) + "\n");
  }

 private:
  Json requirement_json(const RequirementResult& result) {
    const Requirement& r = *result.requirement;
    Json j;
    j["id"] = r.id;
    j["title"] = r.title;
    j["level"] = to_string(r.level);
    j["component"] = r.component;
    j["status"] = to_string(result.status);
    j["threshold"] = r.quality.threshold.str();
    j["worst"] = result.worst ? detail::number_or_null(*result.worst) : Json(nullptr);
    j["reason"] = result.reason;
    if (!r.description.empty()) j["description"] = r.description;
    j["measure"] = r.quality.measure;
    if (r.quality.aggregate) {
      Json over = Json::array();
      for (const auto& a : r.quality.aggregate->over) over.push_back(a);
      j["aggregate"] = {{"over", over}, {"statistic", r.quality.aggregate->statistic.str()}};
    }
    j["trace"] = Json::object();
    for (const auto& [k, v] : r.trace) j["trace"][k] = v;
    j["depends_on"] = r.depends_on;
    j["grid_size"] = r.conditions.size();
    j["seconds"] = result.seconds;
    j["location"] = r.location.str();
    Json points = Json::array();
    for (const auto& p : result.points) points.push_back(point_json(r, p));
    j["points"] = std::move(points);
    if (r.quality.aggregate) {
      Json groups = Json::array();
      for (const auto& g : result.groups) {
        groups.push_back(
            {{"points", g.points},
             {"quality", g.quality ? detail::number_or_null(*g.quality) : Json(nullptr)},
             {"passed", g.passed},
             {"error", g.error ? Json(*g.error) : Json(nullptr)}});
      }
      j["groups"] = std::move(groups);
    }
    return j;
  }

  Json point_json(const Requirement& r, const PointResult& p) {
    Json j;
    j["index"] = p.index;
    Json condition = Json::object();
    for (const auto& [name, value] : r.conditions.point(p.index).entries()) {
      condition[std::string(name)] = detail::to_json(*value);
    }
    j["condition"] = std::move(condition);
    Json measures = Json::object();
    for (const auto& [name, measure] : p.measures.entries()) {
      measures[name] = measure_json(r, p.index, name, measure);
    }
    j["measures"] = std::move(measures);
    j["quality"] = p.quality ? detail::number_or_null(*p.quality) : Json(nullptr);
    j["passed"] = p.passed;
    j["error"] = p.error ? Json(*p.error) : Json(nullptr);
    j["seconds"] = p.seconds;
    return j;
  }

  // Scalars and vectors inline; time series beside results.json as CSV.
  Json measure_json(const Requirement& r, std::size_t index, const std::string& name,
                    const Measure& m) {
    if (const auto* d = std::get_if<double>(&m)) return detail::number_or_null(*d);
    if (const auto* v = std::get_if<std::vector<double>>(&m)) {
      Json a = Json::array();
      for (double x : *v) a.push_back(detail::number_or_null(x));
      return a;
    }
    const auto& ts = std::get<TimeSeries>(m);
    const fs::path relative = fs::path("series") / r.id / fmt::format("{}-{}.csv", index, name);
    std::string csv = "t";
    for (const auto& n : ts.names) csv += "," + n;
    csv += "\n";
    for (std::size_t i = 0; i < ts.time.size(); ++i) {
      csv += fmt::format("{:.17g}", ts.time[i]);
      for (const auto& column : ts.columns) csv += fmt::format(",{:.17g}", column[i]);
      csv += "\n";
    }
    detail::write_atomically(out_dir_ / relative, csv);
    return {
        {"file", relative.generic_string()}, {"samples", ts.time.size()}, {"columns", ts.names}};
  }

  fs::path out_dir_;
  RunInfo info_;
};

}  // namespace

std::unique_ptr<RunListener> make_json_reporter(fs::path out_dir) {
  return std::make_unique<JsonReporter>(std::move(out_dir));
}

}  // namespace simverify::framework
