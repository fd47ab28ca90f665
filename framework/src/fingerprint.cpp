#include "fingerprint.hpp"

#include <simverify/core/fnv1a.hpp>
#include "detail/json_writer.hpp"

#include <fmt/format.h>

namespace simverify::framework {
namespace {

using detail::append_json;
using detail::append_json_string;

// Everything of a requirement that decides its verdict or what results.json says about it;
// not its file location (moving a file does not change the question).
void append_requirement(std::string& o, const Requirement& r) {
  append_json_string(o, r.id);
  append_json_string(o, r.title);
  append_json_string(o, r.description);
  append_json_string(o, to_string(r.level));
  append_json_string(o, r.component);
  for (const auto& group : r.conditions.groups()) {
    o += "group";
    for (const auto& axis : group.axes) {
      append_json_string(o, axis.name);
      o += '[';
      for (const auto& v : axis.values) {
        append_json(o, v, detail::NonFinite::as_text);
        o += ',';
      }
      o += ']';
    }
  }
  append_json_string(o, r.quality.measure);
  append_json_string(o, r.quality.threshold.str());
  if (r.quality.aggregate) {
    o += "aggregate";
    for (const auto& over : r.quality.aggregate->over) append_json_string(o, over);
    append_json_string(o, r.quality.aggregate->statistic.str());
  }
  if (r.quality.compare) {
    o += "compare";
    append_json(o, *r.quality.compare, detail::NonFinite::as_text);
  }
  o += "depends_on";
  for (const auto& d : r.depends_on) append_json_string(o, d);
  o += "fields";
  append_json(o, Value(r.fields), detail::NonFinite::as_text);
  o += ';';
}

}  // namespace

const char* simverify_version() {
  return SIMVERIFY_VERSION;
}

std::string plan_fingerprint(const Plan& plan, std::string_view fail_fast,
                             std::string_view version) {
  std::string text = fmt::format("simverify {}\nfail_fast {}\n", version, fail_fast);
  for (const auto& step : plan.steps) append_requirement(text, *step.requirement);
  return fmt::format("{:016x}", core::fnv1a(text));
}

}  // namespace simverify::framework
