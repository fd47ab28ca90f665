#include "diff.hpp"

#include "detail/encoding.hpp"
#include "detail/json.hpp"
#include "recorded_pass.hpp"
#include "results_file.hpp"

#include <simverify/framework/quality.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using Kind = RequirementChange::Kind;

std::optional<double> number(const Json& object, const char* key) {
  if (!object.contains(key) || !object[key].is_number()) return std::nullopt;
  const double x = object[key].get<double>();
  return std::isfinite(x) ? std::optional<double>(x) : std::nullopt;
}

std::optional<double> margin_of(const std::string& threshold, std::optional<double> quality) {
  const auto t = Threshold::parse(threshold);
  if (!t || !quality) return std::nullopt;
  return t->margin(*quality);
}

// The fields of one requirement the comparison reads, checked once.
struct Side {
  const Json* json = nullptr;
  std::string id, title, level, status, threshold;
  std::optional<double> worst;
  bool aggregated = false;
};

// `r` passed the format's checks (results_file.hpp): id is a string, the others strings when
// present.
Side read_side(const Json& r, const std::string& where) {
  Side s;
  s.json = &r;
  s.id = r["id"].get<std::string>();
  s.status = r.value("status", std::string());
  s.title = r.value("title", std::string());
  s.level = r.value("level", std::string());
  s.threshold = r.value("threshold", std::string());
  if (s.status != "passed" && s.status != "failed" && s.status != "error" &&
      s.status != "skipped") {
    throw ResultsError(
        fmt::format("{}: status: '{}' of {} (expected passed, failed, error or skipped)", where,
                    s.status, s.id));
  }
  // A forged pass would hide a regression: the points must support it, as for the gate.
  if (s.status == "passed") {
    if (const auto why = unsupported_pass(r, fmt::format("{}: {}", where, s.id))) {
      throw ResultsError(fmt::format("{}: {} is marked passed but {}", where, s.id, *why));
    }
  }
  // ... and a forged failure in the baseline would make a regression look old.
  if (s.status == "failed") {
    if (const auto why = unsupported_failure(r, fmt::format("{}: {}", where, s.id))) {
      throw ResultsError(fmt::format("{}: {} is marked failed but {}", where, s.id, *why));
    }
  }
  s.worst = number(r, "worst");
  s.aggregated = r.contains("aggregate") && r["aggregate"].is_object();
  return s;
}

std::map<std::string, Side> read_requirements(const Json& doc, const std::string& label) {
  std::map<std::string, Side> out;
  const auto& list = doc["requirements"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = fmt::format("{}: requirements[{}]", label, i);
    Side s = read_side(list[i], where);
    const std::string id = s.id;
    if (!out.emplace(id, std::move(s)).second) {
      throw ResultsError(fmt::format("{}: {} appears twice", where, id));
    }
  }
  return out;
}

RunIdentity identity(const Json& doc, const std::string& label) {
  RunIdentity run{label, {}, {}};
  const Json summary = doc.value("summary", Json::object());
  if (summary.is_object()) {
    if (summary.contains("commit") && summary["commit"].is_string()) {
      run.commit = summary["commit"].get<std::string>();
    }
    if (summary.contains("started") && summary["started"].is_string()) {
      run.started = summary["started"].get<std::string>();
    }
  }
  return run;
}

struct PointSide {
  std::size_t index = 0;
  bool passed = false;
  std::optional<double> value, quality;
};

// Points keyed by their condition: the same condition is the same grid point in both runs.
std::map<std::string, PointSide> read_points(const Side& s) {
  std::map<std::string, PointSide> out;
  // Types checked by the format's reader: "index" a count, "passed" a boolean.
  const auto listed = s.json->find("points");  // not value(): that copies every point
  if (listed == s.json->end()) return out;
  for (const Json& p : *listed) {
    PointSide side;
    side.index = p["index"].get<std::size_t>();
    side.passed = p.value("passed", false);
    side.quality = number(p, "quality");
    side.value = p.contains("value") ? number(p, "value") : side.quality;
    out.emplace(detail::dump_json(p.value("condition", Json::object())), side);
  }
  return out;
}

bool differs(const Change& c) {
  if (c.base.has_value() != c.now.has_value()) return true;
  return c.base && *c.base != *c.now;
}

void compare_points(RequirementChange& change, const Side& base, const Side& now,
                    bool with_points) {
  const auto before = read_points(base);
  const auto after = read_points(now);
  const auto point_change = [&](const std::string& condition, const PointSide* b,
                                const PointSide* a) {
    PointChange p;
    p.condition = condition;
    if (b) {
      p.base_index = b->index;
      p.base_passed = b->passed;
      p.value.base = b->value;
      if (!base.aggregated) p.margin.base = margin_of(base.threshold, b->quality);
    }
    if (a) {
      p.new_index = a->index;
      p.new_passed = a->passed;
      p.value.now = a->value;
      if (!now.aggregated) p.margin.now = margin_of(now.threshold, a->quality);
    }
    if (!p.status_changed() && !differs(p.value) && !differs(p.margin)) return;
    ++change.points_changed;
    if (with_points) change.points.push_back(std::move(p));
  };
  for (const auto& [condition, b] : before) {
    const auto it = after.find(condition);
    point_change(condition, &b, it == after.end() ? nullptr : &it->second);
  }
  for (const auto& [condition, a] : after) {
    if (!before.contains(condition)) point_change(condition, nullptr, &a);
  }
  // Verdict changes first, then the points whose margin fell most, then grid order.
  std::stable_sort(change.points.begin(), change.points.end(), [](const auto& x, const auto& y) {
    const auto rank = [](const PointChange& p) {
      if (!p.status_changed()) return 2;
      return p.new_passed.value_or(false) ? 1 : 0;
    };
    if (rank(x) != rank(y)) return rank(x) < rank(y);
    return x.margin.delta().value_or(0.0) < y.margin.delta().value_or(0.0);
  });
}

Kind kind_of(const std::string& before, const std::string& after) {
  if (before.empty()) return Kind::added;
  if (after.empty()) return Kind::removed;
  if (before == after) return Kind::same;
  if (before == "passed" && (after == "failed" || after == "error")) return Kind::regressed;
  if (after == "passed") return Kind::fixed;
  return Kind::changed;
}

Json number_or_null(std::optional<double> x) {
  return x ? Json(*x) : Json(nullptr);
}

Json change_json(const Change& c) {
  return {{"base", number_or_null(c.base)},
          {"new", number_or_null(c.now)},
          {"delta", number_or_null(c.delta())}};
}

Json optional_text(const std::string& s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

std::string number_text(std::optional<double> x) {
  return x ? fmt::format("{:.6g}", *x) : "-";
}

// "+0.12" / "-3e-05": a delta people can read at a glance; the arrow says better or worse.
std::string delta_text(std::optional<double> d) {
  if (!d) return "";
  if (*d == 0) return " (=)";
  return fmt::format(" ({} {:+.3g})", *d > 0 ? "up" : "down", *d);
}

std::string run_text(const RunIdentity& run) {
  std::string extra;
  if (!run.commit.empty()) extra = run.commit;
  if (!run.started.empty()) extra += (extra.empty() ? "" : ", ") + run.started;
  return extra.empty() ? run.path : fmt::format("{} ({})", run.path, extra);
}

}  // namespace

std::optional<double> Change::delta() const {
  if (!base || !now) return std::nullopt;
  return *now - *base;
}

const char* to_string(Kind kind) {
  switch (kind) {
    case Kind::regressed: return "regressed";
    case Kind::fixed: return "fixed";
    case Kind::changed: return "changed";
    case Kind::added: return "new";
    case Kind::removed: return "removed";
    case Kind::same: return "same";
  }
  return "same";
}

bool ResultsDiff::regressed() const {
  return count(Kind::regressed) > 0;
}

std::size_t ResultsDiff::count(Kind kind) const {
  return static_cast<std::size_t>(std::count_if(requirements.begin(), requirements.end(),
                                                [&](const auto& r) { return r.kind == kind; }));
}

std::string ResultsDiff::to_json() const {
  const auto run = [](const RunIdentity& r) {
    return Json{{"path", r.path},
                {"commit", optional_text(r.commit)},
                {"started", optional_text(r.started)}};
  };
  Json doc = {{"format", "simverify.diff/1"},
              {"base", run(base)},
              {"new", run(now)},
              {"regressed", regressed()}};
  Json counts = Json::object();
  for (Kind k :
       {Kind::regressed, Kind::fixed, Kind::changed, Kind::added, Kind::removed, Kind::same}) {
    counts[to_string(k)] = count(k);
  }
  doc["counts"] = counts;
  doc["requirements"] = Json::array();
  for (const auto& r : requirements) {
    Json j = {
        {"id", r.id},
        {"title", r.title},
        {"level", r.level},
        {"change", to_string(r.kind)},
        {"status", {{"base", optional_text(r.base_status)}, {"new", optional_text(r.new_status)}}},
        {"threshold",
         {{"base", optional_text(r.base_threshold)}, {"new", optional_text(r.new_threshold)}}},
        {"worst", change_json(r.worst)},
        {"margin", change_json(r.margin)},
        {"points_changed", r.points_changed}};
    if (!r.points.empty()) {
      j["points"] = Json::array();
      for (const auto& p : r.points) {
        const auto opt_index = [](std::optional<std::size_t> i) {
          return i ? Json(*i) : Json(nullptr);
        };
        const auto opt_bool = [](std::optional<bool> b) { return b ? Json(*b) : Json(nullptr); };
        j["points"].push_back(
            {{"condition", Json::parse(p.condition)},
             {"index", {{"base", opt_index(p.base_index)}, {"new", opt_index(p.new_index)}}},
             {"passed", {{"base", opt_bool(p.base_passed)}, {"new", opt_bool(p.new_passed)}}},
             {"value", change_json(p.value)},
             {"margin", change_json(p.margin)}});
      }
    }
    doc["requirements"].push_back(std::move(j));
  }
  return detail::dump_json(doc, 1) + "\n";
}

std::string ResultsDiff::to_text(bool with_points) const {
  // Lines quote the results files (ids, statuses, paths): their control characters are shown,
  // not obeyed by the terminal.
  std::string o;
  const auto line = [&o](const std::string& text) { o += detail::terminal_text(text) + '\n'; };
  line("base: " + run_text(base));
  line("new:  " + run_text(now));
  for (const auto& r : requirements) {
    const bool moved = differs(r.margin) || differs(r.worst);
    if (r.kind == Kind::same && !moved && r.points_changed == 0) continue;
    std::string status;
    switch (r.kind) {
      case Kind::added: status = fmt::format("new, {}", r.new_status); break;
      case Kind::removed: status = fmt::format("removed (was {})", r.base_status); break;
      case Kind::same: status = r.new_status; break;
      default: status = fmt::format("{} -> {}", r.base_status, r.new_status);
    }
    std::string text = fmt::format("  {:<9} {}  {}", to_string(r.kind), r.id, status);
    if (r.kind != Kind::added && r.kind != Kind::removed) {
      text += fmt::format("; worst {} -> {}; margin {} -> {}{}", number_text(r.worst.base),
                          number_text(r.worst.now), number_text(r.margin.base),
                          number_text(r.margin.now), delta_text(r.margin.delta()));
      if (r.base_threshold != r.new_threshold) {
        text += fmt::format("; threshold {} -> {}", r.base_threshold, r.new_threshold);
      }
      if (r.points_changed > 0) text += fmt::format("; {} point(s) changed", r.points_changed);
    }
    line(text);
    if (!with_points) continue;
    for (const auto& p : r.points) {
      const auto verdict = [](std::optional<bool> b) {
        return b ? (*b ? "passed" : "failed") : "absent";
      };
      text =
          fmt::format("      {} {} -> {}; value {} -> {}", p.condition, verdict(p.base_passed),
                      verdict(p.new_passed), number_text(p.value.base), number_text(p.value.now));
      if (p.margin.base || p.margin.now) {
        text += fmt::format("; margin {} -> {}{}", number_text(p.margin.base),
                            number_text(p.margin.now), delta_text(p.margin.delta()));
      }
      line(text);
    }
  }
  o += fmt::format(
      "diff: {} regressed, {} fixed, {} changed status, {} new, {} removed, {} unchanged "
      "status\n",
      count(Kind::regressed), count(Kind::fixed), count(Kind::changed), count(Kind::added),
      count(Kind::removed), count(Kind::same));
  return o;
}

namespace {

ResultsDiff diff_documents(const Json& base_doc, const std::string& base_label, const Json& new_doc,
                           const std::string& new_label, bool with_points) {
  const auto before = read_requirements(base_doc, base_label);
  const auto after = read_requirements(new_doc, new_label);

  ResultsDiff diff;
  diff.base = identity(base_doc, base_label);
  diff.now = identity(new_doc, new_label);
  const auto add = [&](const Side* b, const Side* a) {
    RequirementChange c;
    const Side& any = a ? *a : *b;
    c.id = any.id;
    c.title = any.title;
    c.level = any.level;
    if (b) {
      c.base_status = b->status;
      c.base_threshold = b->threshold;
      c.worst.base = b->worst;
      c.margin.base = margin_of(b->threshold, b->worst);
    }
    if (a) {
      c.new_status = a->status;
      c.new_threshold = a->threshold;
      c.worst.now = a->worst;
      c.margin.now = margin_of(a->threshold, a->worst);
    }
    c.kind = kind_of(c.base_status, c.new_status);
    if (a && b) compare_points(c, *b, *a, with_points);
    diff.requirements.push_back(std::move(c));
  };
  for (const auto& [id, b] : before) {
    const auto it = after.find(id);
    add(&b, it == after.end() ? nullptr : &it->second);
  }
  for (const auto& [id, a] : after) {
    if (!before.contains(id)) add(nullptr, &a);
  }
  // What a reviewer must look at first: regressions, then the other status changes, then the
  // margins that shrank most.
  std::stable_sort(diff.requirements.begin(), diff.requirements.end(),
                   [](const auto& x, const auto& y) {
                     if (x.kind != y.kind) return x.kind < y.kind;
                     return x.margin.delta().value_or(0.0) < y.margin.delta().value_or(0.0);
                   });
  return diff;
}

}  // namespace

ResultsDiff diff_results(const std::string& base_text, const std::string& base_label,
                         const std::string& new_text, const std::string& new_label,
                         bool with_points) {
  return diff_documents(parse_results(base_text, base_label), base_label,
                        parse_results(new_text, new_label), new_label, with_points);
}

ResultsDiff diff_result_folders(const fs::path& base, const fs::path& now, bool with_points) {
  return diff_documents(read_results(base), (base / kResultsFileName).string(), read_results(now),
                        (now / kResultsFileName).string(), with_points);
}

}  // namespace simverify::framework
