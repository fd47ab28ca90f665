#include "merge.hpp"

#include "detail/atomic_file.hpp"
#include "fail_fast.hpp"
#include "tally.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr const char* kFormat = "simverify.results/1";

struct Shard {
  fs::path dir;
  Json doc;
  int index = 1, count = 1;
};

Shard read_shard(const fs::path& dir) {
  Shard s;
  s.dir = dir;
  const fs::path file = dir / "results.json";
  std::ifstream in(file);
  if (!in)
    throw MergeError(fmt::format("{}: cannot read (is it a results folder?)", file.string()));
  try {
    s.doc = Json::parse(in);
  } catch (const std::exception& e) {
    throw MergeError(fmt::format("{}: not valid JSON: {}", file.string(), e.what()));
  }
  if (!s.doc.is_object() || s.doc.value("format", "") != kFormat) {
    throw MergeError(fmt::format(
        "{}: format is '{}', expected '{}' (mixed formats cannot be merged)", file.string(),
        s.doc.is_object() ? s.doc.value("format", "none") : "none", kFormat));
  }
  if (!s.doc.contains("requirements") || !s.doc["requirements"].is_array()) {
    throw MergeError(fmt::format("{}: no \"requirements\" list", file.string()));
  }
  const Json shard =
      s.doc.contains("summary") ? s.doc["summary"].value("shard", Json(nullptr)) : Json(nullptr);
  if (shard.is_string()) {
    const std::string text = shard.get<std::string>();
    if (std::sscanf(text.c_str(), "%d/%d", &s.index, &s.count) != 2 || s.index < 1 ||
        s.index > s.count) {
      throw MergeError(fmt::format("{}: shard '{}' does not read I/N", file.string(), text));
    }
  }
  return s;
}

// Value::str() of the same value, so merged messages read like the runner's.
std::string text_of(const Json& j) {
  if (j.is_number()) return fmt::format("{}", j.get<double>());
  if (j.is_boolean()) return j.get<bool>() ? "true" : "false";
  if (j.is_string()) return j.get<std::string>();
  if (j.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + text_of(j[i]);
    return out + "]";
  }
  if (j.is_object()) {
    std::string out = "{";
    bool first = true;
    for (const auto& [k, v] : j.items()) {
      out += (first ? "" : ", ") + k + ": " + text_of(v);
      first = false;
    }
    return out + "}";
  }
  return "null";
}

std::optional<double> optional_number(const Json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_number()) return std::nullopt;
  return j[key].get<double>();
}

Status parse_status(const std::string& s) {
  if (s == "passed") return Status::passed;
  if (s == "failed") return Status::failed;
  if (s == "error") return Status::error;
  return Status::skipped;
}

FailFast parse_fail_fast(const std::string& s) {
  if (s == "first") return FailFast::first;
  if (s == "none") return FailFast::none;
  return FailFast::level;
}

class Merger {
 public:
  explicit Merger(std::vector<Shard> shards) : shards_(std::move(shards)) {}

  MergeSummary merge(const fs::path& out) {
    check_shards();
    const Json& first = shards_.front().doc;
    const std::string policy =
        first.contains("summary") ? first["summary"].value("fail_fast", "level") : "level";
    FailFastGate gate(parse_fail_fast(policy));
    MergeSummary summary;
    Json requirements = Json::array();
    const std::size_t n = first["requirements"].size();
    std::optional<std::string> level;
    bool level_passed = true;
    double seconds = 0;
    for (const auto& s : shards_) {
      summary.complete = summary.complete && s.doc.value("complete", false);
      if (s.doc.contains("summary"))
        seconds = std::max(seconds, s.doc["summary"].value("seconds", 0.0));
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Json& head = first["requirements"][i];
      const std::string lvl = head.value("level", "unit");
      if (level && *level != lvl) {
        gate.level_finished(*parse_level(*level), level_passed);
        level_passed = true;
      }
      level = lvl;
      Json merged = merge_requirement(i, gate);
      const Status status = parse_status(merged["status"].get<std::string>());
      gate.requirement_finished(merged["id"].get<std::string>(), status);
      if (status != Status::passed) level_passed = false;
      switch (status) {
        case Status::passed: ++summary.passed; break;
        case Status::failed: ++summary.failed; break;
        case Status::error: ++summary.errors; break;
        case Status::skipped: ++summary.skipped; break;
      }
      requirements.push_back(std::move(merged));
    }
    summary.releasable = summary.complete && n > 0 && summary.passed == static_cast<int>(n);
    Json doc;
    doc["format"] = kFormat;
    doc["requirements"] = std::move(requirements);
    Json from = Json::array();
    for (const auto& s : shards_) from.push_back(s.dir.string());
    doc["summary"] = {{"passed", summary.passed},
                      {"failed", summary.failed},
                      {"error", summary.errors},
                      {"skipped", summary.skipped},
                      {"seconds", seconds},
                      {"jobs", first["summary"].value("jobs", 1)},
                      {"shard", nullptr},
                      {"fail_fast", policy},
                      {"started", first["summary"].value("started", Json(nullptr))},
                      {"commit", first["summary"].value("commit", Json(nullptr))},
                      {"merged_from", std::move(from)}};
    doc["releasable"] = summary.releasable;
    doc["complete"] = summary.complete;
    fs::create_directories(out);
    for (const auto& s : shards_) {
      if (fs::is_directory(s.dir / "series")) {
        fs::copy(s.dir / "series", out / "series",
                 fs::copy_options::recursive | fs::copy_options::overwrite_existing);
      }
    }
    detail::write_atomically(out / "results.json", doc.dump(1) + "\n");
    return summary;
  }

 private:
  void check_shards() {
    const int count = shards_.front().count;
    std::map<int, const Shard*> by_index;
    for (const auto& s : shards_) {
      if (s.count != count) {
        throw MergeError(
            fmt::format("{} is shard {}/{} but {} is shard {}/{}: all shards must "
                        "come from the same split",
                        s.dir.string(), s.index, s.count, shards_.front().dir.string(),
                        shards_.front().index, count));
      }
      auto [it, inserted] = by_index.emplace(s.index, &s);
      if (!inserted) {
        throw MergeError(fmt::format("shard {}/{} is given twice ({} and {})", s.index, count,
                                     it->second->dir.string(), s.dir.string()));
      }
    }
    std::vector<std::string> missing;
    for (int i = 1; i <= count; ++i) {
      if (!by_index.contains(i)) missing.push_back(fmt::format("{}/{}", i, count));
    }
    if (!missing.empty()) {
      std::string list;
      for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
      throw MergeError(fmt::format("missing shard(s): {}", list));
    }
    std::sort(shards_.begin(), shards_.end(),
              [](const Shard& a, const Shard& b) { return a.index < b.index; });
    const Json& reference = shards_.front().doc["requirements"];
    for (const auto& s : shards_) {
      const Json& list = s.doc["requirements"];
      bool same = list.size() == reference.size();
      for (std::size_t i = 0; same && i < list.size(); ++i) {
        same = list[i].value("id", "") == reference[i].value("id", "");
      }
      if (!same) {
        throw MergeError(
            fmt::format("{} and {} planned different requirements (different files, "
                        "--level or --filter?)",
                        shards_.front().dir.string(), s.dir.string()));
      }
    }
  }

  Json merge_requirement(std::size_t i, const FailFastGate& gate) {
    const Json& head = shards_.front().doc["requirements"][i];
    const std::string id = head.value("id", "");
    Json out = Json::object();
    for (const auto& [key, value] : head.items()) {
      if (key == "points") break;  // the streamed writer puts decided keys after the points
      out[key] = value;
    }
    std::vector<std::string> depends_on;
    for (const auto& d : head.value("depends_on", Json::array())) depends_on.push_back(d);
    std::string skip = gate.skip_reason(id, depends_on);
    double seconds = 0;
    for (const auto& s : shards_) {
      const Json& r = s.doc["requirements"][i];
      seconds = std::max(seconds, r.value("seconds", 0.0));
      const std::string reason = r.value("reason", "");
      if (skip.empty() && r.value("status", "") == "skipped" &&
          (reason.starts_with("not run: interrupted") || !r.contains("points") ||
           r["points"].empty())) {
        if (reason.starts_with("not run: interrupted")) skip = reason;
      }
    }
    if (!skip.empty()) {
      out["points"] = Json::array();
      out["point_count"] = 0;
      out["status"] = "skipped";
      out["worst"] = nullptr;
      out["worst_point"] = nullptr;
      out["reason"] = skip;
      if (head.contains("aggregate")) out["groups"] = Json::array();
      out["seconds"] = seconds;
      return out;
    }
    // Union of the shards' points, each exactly once.
    std::map<std::size_t, Json> points;
    std::map<std::size_t, fs::path> owner;
    std::optional<std::string> component_error;
    for (const auto& s : shards_) {
      const Json& r = s.doc["requirements"][i];
      if (r.value("status", "") == "error" && r.value("point_count", 0) == 0 &&
          r.value("reason", "").find("not registered") != std::string::npos) {
        component_error = r.value("reason", "");
      }
      for (const auto& p : r.value("points", Json::array())) {
        const auto index = p.value("index", std::size_t{0});
        if (auto it = owner.find(index); it != owner.end()) {
          throw MergeError(fmt::format("point {} of {} is in both {} and {} (overlapping shards)",
                                       index, id, it->second.string(), s.dir.string()));
        }
        owner.emplace(index, s.dir);
        points.emplace(index, p);
      }
    }
    const auto grid = head.value("grid_size", std::size_t{0});
    const bool complete = std::all_of(shards_.begin(), shards_.end(), [](const Shard& s) {
      return s.doc.value("complete", false);
    });
    if (!component_error && complete && points.size() != grid) {
      throw MergeError(
          fmt::format("{}: the shards hold {} of its {} grid points (a shard is "
                      "missing or was run with other files)",
                      id, points.size(), grid));
    }
    const auto threshold = Threshold::parse(head.value("threshold", ""));
    if (!threshold) throw MergeError(fmt::format("{}: unreadable threshold", id));
    std::optional<Aggregate> aggregate;
    if (head.contains("aggregate")) {
      Aggregate a;
      for (const auto& o : head["aggregate"].value("over", Json::array())) a.over.push_back(o);
      const auto statistic = Statistic::parse(head["aggregate"].value("statistic", ""));
      if (!statistic || a.over.empty())
        throw MergeError(fmt::format("{}: unreadable aggregate", id));
      a.statistic = *statistic;
      aggregate = std::move(a);
    }
    const Json axes = head.value("axes", Json::object());
    auto is_over = [&](const std::string& name) {
      return aggregate && std::find(aggregate->over.begin(), aggregate->over.end(), name) !=
                              aggregate->over.end();
    };
    auto describe = [&](std::size_t index, bool group) {
      std::string text;
      auto it = points.find(index);
      if (it != points.end()) {
        const Json condition = it->second.value("condition", Json::object());
        for (const auto& [name, value] : condition.items()) {
          if (axes.value(name, 1) < 2 || (group && is_over(name))) continue;
          text += (text.empty() ? "" : ", ") + name + "=" + text_of(value);
        }
      }
      return text.empty() ? std::string(group ? "the only group" : "the only grid point") : text;
    };
    RequirementTally tally(*threshold, aggregate, describe);
    RequirementResult result;
    Json merged_points = Json::array();
    for (auto& [index, p] : points) {
      PointResult point;
      point.index = index;
      point.value = optional_number(p, "value");
      if (p.contains("error") && p["error"].is_string())
        point.error = p["error"].get<std::string>();
      std::string key;
      double axis = 0;
      if (aggregate) {
        const Json condition = p.value("condition", Json::object());
        for (const auto& [name, value] : condition.items()) {
          if (!is_over(name)) key += value.dump() + ",";
        }
        if (aggregate->statistic.kind == Statistic::Kind::order) {
          axis = p["condition"].value(aggregate->over.front(), 0.0);
        }
      }
      tally.add(point, key, axis);
      p["quality"] = point.quality ? Json(*point.quality) : Json(nullptr);
      if (point.quality && !std::isfinite(*point.quality)) p["quality"] = nullptr;
      p["passed"] = point.passed;
      merged_points.push_back(p);  // `points` stays whole: describe() reads it
    }
    const std::size_t count = merged_points.size();
    out["points"] = std::move(merged_points);
    out["point_count"] = count;
    if (component_error) {
      result.status = Status::error;
      result.reason = *component_error;
    } else {
      tally.finish(result);
    }
    out["status"] = to_string(result.status);
    out["worst"] =
        result.worst && std::isfinite(*result.worst) ? Json(*result.worst) : Json(nullptr);
    out["worst_point"] = result.worst_point ? Json(*result.worst_point) : Json(nullptr);
    out["reason"] = result.reason;
    if (aggregate) {
      Json groups = Json::array();
      for (const auto& g : result.groups) {
        groups.push_back(
            {{"points", g.points},
             {"quality", g.quality && std::isfinite(*g.quality) ? Json(*g.quality) : Json(nullptr)},
             {"passed", g.passed},
             {"error", g.error ? Json(*g.error) : Json(nullptr)}});
      }
      out["groups"] = std::move(groups);
    }
    out["seconds"] = seconds;
    return out;
  }

  std::vector<Shard> shards_;
};

}  // namespace

MergeSummary merge_results(const std::vector<fs::path>& dirs, const fs::path& out) {
  if (dirs.empty()) throw MergeError("give the shard result folders to merge");
  std::vector<Shard> shards;
  for (const auto& dir : dirs) shards.push_back(read_shard(dir));
  return Merger(std::move(shards)).merge(out);
}

}  // namespace simverify::framework
