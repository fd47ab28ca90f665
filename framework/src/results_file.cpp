#include "results_file.hpp"

#include "detail/encoding.hpp"
#include "detail/json.hpp"
#include "detail/json_writer.hpp"
#include "detail/read_file.hpp"
#include "fingerprint.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

namespace simverify::framework {
namespace {

enum class Type { string, boolean, number, count, object, array };

const char* name_of(Type t) {
  switch (t) {
    case Type::string: return "a string";
    case Type::boolean: return "a boolean";
    case Type::number: return "a number";
    case Type::count: return "a non-negative integer";
    case Type::object: return "an object";
    case Type::array: return "a list";
  }
  return "?";
}

bool has_type(const ResultsJson& j, Type t) {
  switch (t) {
    case Type::string: return j.is_string();
    case Type::boolean: return j.is_boolean();
    case Type::number: return j.is_number();
    case Type::count: return j.is_number_unsigned();
    case Type::object: return j.is_object();
    case Type::array: return j.is_array();
  }
  return false;
}

// Walks a document and names the first key whose value has the wrong type.
class ShapeCheck {
 public:
  explicit ShapeCheck(std::string label) : label_(std::move(label)) {}

  // `key` of `object` must exist (unless optional) and have type `t` (or be null if nullable).
  const ResultsJson* need(const ResultsJson& object, const std::string& path, const char* key,
                          Type t, bool optional = false, bool nullable = false) const {
    const auto it = object.find(key);
    if (it == object.end()) {
      if (optional) return nullptr;
      throw ResultsError(
          fmt::format("{}: {}{}: missing (expected {})", label_, path, key, name_of(t)));
    }
    if (nullable && it->is_null()) return nullptr;
    if (!has_type(*it, t)) {
      throw ResultsError(fmt::format("{}: {}{}: expected {}{}, found {}", label_, path, key,
                                     name_of(t), nullable ? " or null" : "", it->type_name()));
    }
    return &*it;
  }

  void each(const ResultsJson& list, const std::string& path, Type t) const {
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!has_type(list[i], t)) {
        throw ResultsError(fmt::format("{}: {}[{}]: expected {}, found {}", label_, path, i,
                                       name_of(t), list[i].type_name()));
      }
    }
  }

  void requirement(const ResultsJson& r, const std::string& at) const {
    need(r, at, "id", Type::string);
    // The readers say what they miss when they need it (merge: an unreadable threshold).
    for (const char* key :
         {"level", "component", "threshold", "measure", "title", "reason", "status"}) {
      need(r, at, key, Type::string, true);
    }
    if (const auto* a = need(r, at, "aggregate", Type::object, true)) {
      each(*need(*a, at + "aggregate.", "over", Type::array), at + "aggregate.over", Type::string);
      need(*a, at + "aggregate.", "statistic", Type::string);
    }
    if (const auto* d = need(r, at, "depends_on", Type::array, true)) {
      each(*d, at + "depends_on", Type::string);
    }
    need(r, at, "grid_size", Type::count, true);
    need(r, at, "point_count", Type::count, true);
    need(r, at, "worst", Type::number, true, true);
    need(r, at, "worst_point", Type::count, true, true);
    need(r, at, "seconds", Type::number, true);
    if (const auto* axes = need(r, at, "axes", Type::object, true)) {
      for (const auto& [name, size] : axes->items()) {
        if (!size.is_number_unsigned()) {
          throw ResultsError(fmt::format("{}: {}axes.{}: expected a non-negative integer, found {}",
                                         label_, at, name, size.type_name()));
        }
      }
    }
    if (const auto* groups = need(r, at, "axis_groups", Type::array, true)) {
      for (std::size_t g = 0; g < groups->size(); ++g) {
        const std::string gat = fmt::format("{}axis_groups[{}].", at, g);
        if (!(*groups)[g].is_object()) {
          throw ResultsError(fmt::format("{}: {}: expected an object", label_, gat));
        }
        each(*need((*groups)[g], gat, "axes", Type::array), gat + "axes", Type::string);
        need((*groups)[g], gat, "size", Type::count);
      }
    }
    if (const auto* points = need(r, at, "points", Type::array, true)) {
      for (std::size_t i = 0; i < points->size(); ++i) {
        const std::string pat = fmt::format("{}points[{}].", at, i);
        const ResultsJson& p = (*points)[i];
        if (!p.is_object()) {
          throw ResultsError(fmt::format("{}: {}: expected an object, found {}", label_,
                                         pat.substr(0, pat.size() - 1), p.type_name()));
        }
        need(p, pat, "index", Type::count);
        need(p, pat, "condition", Type::object, true);
        need(p, pat, "measures", Type::object, true);
        need(p, pat, "value", Type::number, true, true);
        need(p, pat, "quality", Type::number, true, true);
        need(p, pat, "passed", Type::boolean, true);
        need(p, pat, "group_passed", Type::boolean, true);
        need(p, pat, "error", Type::string, true, true);
      }
    }
    if (const auto* groups = need(r, at, "groups", Type::array, true)) {
      for (std::size_t i = 0; i < groups->size(); ++i) {
        const std::string gat = fmt::format("{}groups[{}].", at, i);
        if (!(*groups)[i].is_object()) {
          throw ResultsError(fmt::format("{}: {}: expected an object", label_, gat));
        }
        each(*need((*groups)[i], gat, "points", Type::array), gat + "points", Type::count);
        need((*groups)[i], gat, "passed", Type::boolean);
        need((*groups)[i], gat, "quality", Type::number, true, true);
        need((*groups)[i], gat, "error", Type::string, true, true);
      }
    }
  }

  void document(const ResultsJson& doc) const {
    if (!doc.is_object()) {
      throw ResultsError(fmt::format("{}: expected a JSON object with \"format\": \"{}\"", label_,
                                     kResultsFormat));
    }
    const auto* format = need(doc, "", "format", Type::string);
    if (format->get_ref<const std::string&>() != kResultsFormat) {
      throw ResultsError(fmt::format("{}: format: '{}', expected '{}'", label_,
                                     format->get_ref<const std::string&>(), kResultsFormat));
    }
    if (const auto* plan = need(doc, "", "plan", Type::object, true)) {
      need(*plan, "plan.", "fingerprint", Type::string);
      need(*plan, "plan.", "simverify", Type::string, true);
      need(*plan, "plan.", "project_file", Type::string, true, true);
      if (const auto* sources = need(*plan, "plan.", "sources", Type::array, true)) {
        each(*sources, "plan.sources", Type::string);
      }
      need(*plan, "plan.", "level", Type::string, true, true);
      need(*plan, "plan.", "filter", Type::string, true, true);
    }
    const auto& requirements = *need(doc, "", "requirements", Type::array);
    for (std::size_t i = 0; i < requirements.size(); ++i) {
      const std::string at = fmt::format("requirements[{}].", i);
      if (!requirements[i].is_object()) {
        throw ResultsError(fmt::format("{}: requirements[{}]: expected an object, found {}", label_,
                                       i, requirements[i].type_name()));
      }
      requirement(requirements[i], at);
    }
    if (const auto* summary = need(doc, "", "summary", Type::object, true)) {
      for (const char* key : {"passed", "failed", "error", "skipped", "jobs"}) {
        need(*summary, "summary.", key, Type::count, true);
      }
      need(*summary, "summary.", "seconds", Type::number, true);
      need(*summary, "summary.", "shard", Type::string, true, true);
      need(*summary, "summary.", "fail_fast", Type::string, true);
      need(*summary, "summary.", "started", Type::string, true, true);
      need(*summary, "summary.", "commit", Type::string, true, true);
    }
    need(doc, "", "releasable", Type::boolean, true);
    need(doc, "", "complete", Type::boolean, true);
  }

 private:
  std::string label_;
};

}  // namespace

ResultsJson parse_results(std::string_view text, const std::string& label) {
  // JSON is UTF-8 (RFC 8259); said here with the place, not as the parser's "ill-formed UTF-8
  // byte" message that quotes the broken bytes back.
  if (const auto problem = detail::find_encoding_problem(text, detail::Allowed::any_code_point)) {
    throw ResultsError(
        fmt::format("{}:{}:{}: {}", label, problem->line, problem->column, problem->message));
  }
  ResultsJson doc;
  try {
    doc = detail::parse_json_document(text, label);
  } catch (const detail::JsonInputError& e) {
    throw ResultsError(e.what());
  }
  ShapeCheck(label).document(doc);
  return doc;
}

ResultsJson read_results(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / kResultsFileName;
  constexpr std::string_view kWhat = "results (expected a folder written by simverify run)";
  std::string text;
  try {
    // Parsed as it is read: the text of a large file held beside its document was a third of
    // the peak memory of `gate` (docs/runner.md, "Reading large results").
    detail::RegularFile stream(file, kWhat);
    if (auto doc = detail::parse_json_stream(stream)) {
      ShapeCheck(file.string()).document(*doc);
      return std::move(*doc);
    }
    // Not a document: read whole, so that parse_results says why, with the place.
    text = detail::read_regular_file(file, kWhat);
  } catch (const detail::ReadError& e) {
    throw ResultsError(e.what());
  }
  return parse_results(text, file.string());
}

std::string tally_mismatch(const ResultsJson& doc) {
  const ResultsJson summary = doc.value("summary", ResultsJson::object());
  std::map<std::string, std::size_t> recorded;
  // find(), not value(): value() returns a copy, here of every point of the file.
  const auto requirements = doc.find("requirements");
  if (requirements != doc.end() && requirements->is_array()) {
    for (const auto& r : *requirements) {
      if (!r.is_object()) continue;
      const auto status = r.find("status");
      if (status != r.end() && status->is_string()) ++recorded[status->get<std::string>()];
    }
  }
  std::string differences;
  for (const char* status : {"passed", "failed", "error", "skipped"}) {
    if (!summary.is_object() || !summary.value(status, ResultsJson()).is_number_unsigned())
      continue;
    const auto counted = summary[status].get<std::size_t>();
    const std::size_t held = recorded[status];
    if (counted != held) {
      differences += fmt::format("{}{} {}, {} recorded", differences.empty() ? "" : "; ", counted,
                                 status, held);
    }
  }
  return differences;
}

PlanRecord plan_record(const ResultsJson& doc) {
  PlanRecord record;
  const auto plan = doc.find("plan");
  if (plan == doc.end() || !plan->is_object()) return record;
  const auto text = [&](const char* key) {
    const auto it = plan->find(key);
    return it != plan->end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  record.fingerprint = text("fingerprint");
  record.project_file = text("project_file");
  record.level = text("level");
  record.filter = text("filter");
  if (const auto sources = plan->find("sources"); sources != plan->end() && sources->is_array()) {
    for (const auto& s : *sources) record.sources.push_back(s.get<std::string>());
  }
  return record;
}

std::string results_head(const PlanRecord& plan) {
  const auto text_or_null = [](std::string& o, const std::string& text) {
    if (text.empty()) {
      o += "null";
    } else {
      detail::append_json_string(o, text);
    }
  };
  std::string head = "{\n \"format\": ";
  detail::append_json_string(head, kResultsFormat);
  head += ",\n \"plan\": {\"fingerprint\": ";
  detail::append_json_string(head, plan.fingerprint);
  head += ", \"simverify\": ";
  detail::append_json_string(head, simverify_version());
  head += ", \"project_file\": ";
  text_or_null(head, plan.project_file);
  head += ", \"sources\": [";
  for (std::size_t i = 0; i < plan.sources.size(); ++i) {
    if (i > 0) head += ", ";
    detail::append_json_string(head, plan.sources[i]);
  }
  head += "], \"level\": ";
  text_or_null(head, plan.level);
  head += ", \"filter\": ";
  text_or_null(head, plan.filter);
  head += "},\n \"requirements\": [";
  return head;
}

void append_requirement_head(std::string& o, const Requirement& r,
                             const std::vector<FigureFile>& figures, const UnitMap& units) {
  using detail::append_json;
  using detail::append_json_string;
  auto key = [&o](std::string_view k) {
    o += "\n   ";
    append_json_string(o, k);
    o += ": ";
  };
  key("id");
  append_json_string(o, r.id);
  o += ',';
  key("title");
  append_json_string(o, r.title);
  o += ',';
  if (!r.description.empty()) {
    key("description");
    append_json_string(o, r.description);
    o += ',';
  }
  key("level");
  append_json_string(o, to_string(r.level));
  o += ',';
  key("component");
  append_json_string(o, r.component);
  o += ',';
  key("threshold");
  append_json_string(o, r.quality.threshold.str());
  o += ',';
  key("measure");
  append_json_string(o, r.quality.measure);
  o += ',';
  if (r.quality.compare) {
    key("compare");
    append_json(o, *r.quality.compare);
    o += ',';
  }
  if (r.quality.aggregate) {
    key("aggregate");
    o += "{\"over\": [";
    for (std::size_t i = 0; i < r.quality.aggregate->over.size(); ++i) {
      if (i > 0) o += ", ";
      append_json_string(o, r.quality.aggregate->over[i]);
    }
    o += "], \"statistic\": ";
    append_json_string(o, r.quality.aggregate->statistic.str());
    if (!r.quality.aggregate->weight.empty()) {
      o += ", \"weight\": ";
      append_json_string(o, r.quality.aggregate->weight);
    }
    o += "},";
  }
  key("trace");
  o += '{';
  bool first = true;
  for (const auto& [k, v] : r.trace) {
    if (!first) o += ", ";
    first = false;
    append_json_string(o, k);
    o += ": ";
    append_json_string(o, v);
  }
  o += "},";
  key("depends_on");
  o += '[';
  for (std::size_t i = 0; i < r.depends_on.size(); ++i) {
    if (i > 0) o += ", ";
    append_json_string(o, r.depends_on[i]);
  }
  o += "],";
  key("grid_size");
  o += fmt::format("{},", r.conditions.size());
  // Axis sizes let `merge` describe grid points as the runner does (varying axes only).
  key("axes");
  o += '{';
  first = true;
  for (const auto& g : r.conditions.groups()) {
    for (const auto& a : g.axes) {
      if (!first) o += ", ";
      first = false;
      append_json_string(o, a.name);
      o += fmt::format(": {}", a.values.size());
    }
  }
  o += "},";
  // The grid's shape (zip groups vary together; the last group fastest): `merge` forms the
  // aggregation groups from point indices with it, exactly as the runner did.
  key("axis_groups");
  o += '[';
  for (std::size_t g = 0; g < r.conditions.groups().size(); ++g) {
    const AxisGroup& group = r.conditions.groups()[g];
    o += g == 0 ? "{\"axes\": [" : ", {\"axes\": [";
    for (std::size_t i = 0; i < group.axes.size(); ++i) {
      if (i > 0) o += ", ";
      append_json_string(o, group.axes[i].name);
    }
    o += fmt::format("], \"size\": {}}}", group.size());
  }
  o += "],";
  key("location");
  append_json_string(o, r.location.str());
  o += ',';
  if (!figures.empty()) {
    key("figures");
    o += '[';
    for (std::size_t i = 0; i < figures.size(); ++i) {
      o += i == 0 ? "{\"title\": " : ", {\"title\": ";
      append_json_string(o, figures[i].title);
      o += ", \"file\": ";
      append_json_string(o, figures[i].file);
      o += '}';
    }
    o += "],";
  }
  if (!units.empty()) {
    key("units");
    o += '{';
    for (auto it = units.begin(); it != units.end(); ++it) {
      if (it != units.begin()) o += ", ";
      append_json_string(o, it->first);
      o += ": ";
      append_json_string(o, it->second);
    }
    o += "},";
  }
  key("points");
  o += '[';
}

ResultsJson decided_keys(const RequirementResult& result, bool aggregated) {
  // JSON has no NaN or infinity: such numbers are null.
  const auto number = [](const std::optional<double>& x) {
    return x && std::isfinite(*x) ? ResultsJson(*x) : ResultsJson(nullptr);
  };
  const auto text = [](const std::optional<std::string>& s) {
    return s ? ResultsJson(*s) : ResultsJson(nullptr);
  };
  ResultsJson out = ResultsJson::object();
  out["point_count"] = result.point_count;
  out["status"] = to_string(result.status);
  out["worst"] = number(result.worst);
  out["worst_point"] = result.worst_point ? ResultsJson(*result.worst_point) : ResultsJson(nullptr);
  out["reason"] = result.reason;
  if (aggregated) {
    ResultsJson groups = ResultsJson::array();
    for (const auto& g : result.groups) {
      groups.push_back({{"points", g.points},
                        {"quality", number(g.quality)},
                        {"passed", g.passed},
                        {"error", text(g.error)}});
    }
    out["groups"] = std::move(groups);
  }
  return out;
}

void append_value(std::string& o, const ResultsJson& value) {
  switch (value.type()) {
    case ResultsJson::value_t::boolean: o += value.get<bool>() ? "true" : "false"; break;
    case ResultsJson::value_t::number_unsigned:
      o += fmt::format("{}", value.get<std::uint64_t>());
      break;
    case ResultsJson::value_t::number_integer:
      o += fmt::format("{}", value.get<std::int64_t>());
      break;
    case ResultsJson::value_t::number_float:
      detail::append_json_number(o, value.get<double>());
      break;
    case ResultsJson::value_t::string:
      detail::append_json_string(o, value.get_ref<const std::string&>());
      break;
    case ResultsJson::value_t::array: {
      o += '[';
      bool first = true;
      for (const auto& item : value) {
        if (!first) o += ", ";
        first = false;
        append_value(o, item);
      }
      o += ']';
      break;
    }
    case ResultsJson::value_t::object: {
      o += '{';
      bool first = true;
      for (const auto& [key, item] : value.items()) {
        if (!first) o += ", ";
        first = false;
        detail::append_json_string(o, key);
        o += ": ";
        append_value(o, item);
      }
      o += '}';
      break;
    }
    default: o += "null";
  }
}

std::string results_tail(const ResultsSummary& s) {
  ResultsJson summary = {{"passed", s.passed},   {"failed", s.failed},      {"error", s.errors},
                         {"skipped", s.skipped}, {"seconds", s.seconds},    {"jobs", s.jobs},
                         {"shard", nullptr},     {"fail_fast", s.fail_fast}};
  if (!s.shard.empty()) summary["shard"] = s.shard;
  if (!s.merged_from.empty()) summary["merged_from"] = s.merged_from;
  summary["started"] = s.started.empty() ? ResultsJson(nullptr) : ResultsJson(s.started);
  summary["commit"] = s.commit.empty() ? ResultsJson(nullptr) : ResultsJson(s.commit);
  std::string o = " \"summary\": ";
  append_value(o, summary);
  o += fmt::format(",\n \"releasable\": {},\n \"complete\": {}\n}}\n", s.releasable, s.complete);
  return o;
}

std::optional<double> condition_number(const ResultsJson& value) {
  if (value.is_number()) return value.get<double>();
  if (!value.is_string()) return std::nullopt;
  const auto& text = value.get_ref<const std::string&>();
  if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (text == "inf") return std::numeric_limits<double>::infinity();
  if (text == "-inf") return -std::numeric_limits<double>::infinity();
  return std::nullopt;
}

}  // namespace simverify::framework
