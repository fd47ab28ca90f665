#include "retally.hpp"

#include "tally.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace simverify::framework {
namespace {

using Json = nlohmann::ordered_json;

// Value::str() of the same value, so recomputed messages read like the runner's (a NaN condition
// is written as "nan" and reads back as the same text).
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

// The grid's shape as results.json records it (`axis_groups`): which axes vary together, how
// many values each group has and whether it is aggregated over. Positions follow from a
// point's index exactly as in Grid (the last group varies fastest).
struct GridShape {
  struct Group {
    std::vector<std::string> axes;
    std::size_t size = 0;
    bool over = false;
  };
  std::vector<Group> groups;
  std::vector<std::size_t> strides;

  GridShape(const Json& head, const std::optional<Aggregate>& aggregate, const std::string& id) {
    if (!head.contains("axis_groups")) {
      throw ResultsError(
          fmt::format("{}: no \"axis_groups\" (written by an older simverify?)", id));
    }
    std::size_t total = 1;
    for (const auto& g : head["axis_groups"]) {
      Group group;
      for (const auto& name : g["axes"]) group.axes.push_back(name.get<std::string>());
      group.size = g["size"].get<std::size_t>();
      if (group.size == 0 || group.axes.empty()) {
        throw ResultsError(fmt::format("{}: an axis group without values", id));
      }
      for (const auto& name : group.axes) {
        group.over =
            group.over || (aggregate && std::find(aggregate->over.begin(), aggregate->over.end(),
                                                  name) != aggregate->over.end());
      }
      if (total > std::numeric_limits<std::size_t>::max() / group.size) {
        throw ResultsError(
            fmt::format("{}: \"axis_groups\" span more points than can be counted", id));
      }
      total *= group.size;
      groups.push_back(std::move(group));
    }
    if (total != head.value("grid_size", std::size_t{0})) {
      throw ResultsError(fmt::format("{}: \"axis_groups\" span {} point(s) but \"grid_size\" is {}",
                                     id, total, head.value("grid_size", std::size_t{0})));
    }
    strides.assign(groups.size(), 1);
    for (std::size_t g = groups.size(); g-- > 1;) strides[g - 1] = strides[g] * groups[g].size;
  }

  [[nodiscard]] std::string group_key(std::size_t index) const {
    std::string key;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (!groups[g].over) key += fmt::format("{},", (index / strides[g]) % groups[g].size);
    }
    return key;
  }
};

// A point's recorded conditions, read in place; none when it has no object there.
const Json& condition_of(const Json& point) {
  static const Json no_condition = Json::object();
  const auto found = point.find("condition");
  return found != point.end() && found->is_object() ? *found : no_condition;
}

}  // namespace

Json retally(const Json& head, const PointsByIndex& points, const std::string& id,
             Json* recomputed) {
  const auto grid = head.value("grid_size", std::size_t{0});
  const auto threshold = Threshold::parse(head.value("threshold", ""));
  if (!threshold) throw ResultsError(fmt::format("{}: unreadable threshold", id));
  std::optional<Aggregate> aggregate;
  if (head.contains("aggregate")) {
    Aggregate a;
    for (const auto& o : head["aggregate"].value("over", Json::array())) a.over.push_back(o);
    const auto statistic = Statistic::parse(head["aggregate"].value("statistic", ""));
    if (!statistic || a.over.empty())
      throw ResultsError(fmt::format("{}: unreadable aggregate", id));
    a.statistic = *statistic;
    a.weight = head["aggregate"].value("weight", "");
    if (a.statistic.weighted() && a.weight.empty())
      throw ResultsError(fmt::format("{}: weighted aggregate without its weight axis", id));
    aggregate = std::move(a);
  }
  const GridShape shape(head, aggregate, id);
  auto describe = [&](std::size_t index, bool group) {
    std::string text;
    auto it = points.find(index);
    if (it != points.end()) {
      const Json& condition = condition_of(*it->second);
      for (const auto& g : shape.groups) {
        if (g.size < 2 || (group && g.over)) continue;
        for (const auto& name : g.axes) {
          const auto value = condition.find(name);
          text += (text.empty() ? "" : ", ") + name + "=" +
                  (value == condition.end() ? std::string("?") : text_of(*value));
        }
      }
    }
    return text.empty() ? std::string(group ? "the only group" : "the only grid point") : text;
  };
  RequirementTally tally(*threshold, aggregate, describe);
  RequirementResult result;
  if (recomputed != nullptr) *recomputed = Json::array();
  for (const auto& [index, entry] : points) {
    const Json& p = *entry;
    PointResult point;
    point.index = index;
    point.value = optional_number(p, "value");
    if (p.contains("error") && p["error"].is_string()) point.error = p["error"].get<std::string>();
    if (index >= grid) {
      throw ResultsError(
          fmt::format("{}: point index {} is outside its grid of {} point(s)", id, index, grid));
    }
    std::string key;
    double axis = 0;
    if (aggregate) {
      // The group is the point's position on the axes not aggregated over, as in the runner:
      // equal condition values at different grid positions are different groups.
      key = shape.group_key(index);
      // `order` reads the point's coordinate on its `over` axis, the weighted statistics the
      // point's weight.
      const std::string* axis_name = aggregate->statistic.kind == Statistic::Kind::order
                                         ? &aggregate->over.front()
                                     : aggregate->statistic.weighted() ? &aggregate->weight
                                                                       : nullptr;
      if (axis_name != nullptr) {
        const Json& condition = condition_of(p);
        const auto value = condition.find(*axis_name);
        const auto number = value == condition.end() ? std::nullopt : condition_number(*value);
        if (!number) {
          throw ResultsError(
              fmt::format("{}: point {} has no number for axis '{}'", id, index, *axis_name));
        }
        axis = *number;
      }
    }
    tally.add(point, key, axis);
    if (recomputed != nullptr) {
      Json& again = recomputed->emplace_back(p);
      again["quality"] =
          point.quality && std::isfinite(*point.quality) ? Json(*point.quality) : Json(nullptr);
      again["passed"] = point.passed;
    }
  }
  result.point_count = points.size();
  tally.finish(result);
  if (recomputed != nullptr && aggregate) {
    // As the runner records them: a point of a failing group is not passed (tally.hpp).
    const auto failing = points_of_failing_groups(result);
    for (Json& again : *recomputed) {
      if (failing.contains(again["index"].get<std::size_t>())) {
        again["passed"] = false;
        again["group_passed"] = false;
      } else {
        again.erase("group_passed");
      }
    }
  }
  return decided_keys(result, aggregate.has_value());
}

}  // namespace simverify::framework
