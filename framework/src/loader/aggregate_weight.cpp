#include "loader/aggregate_weight.hpp"

#include "detail/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace simverify::framework::loader {
namespace {

// The axis group `name` belongs to varies with the aggregation: it holds an `over` axis.
bool varies_with_over(const Requirement& r, const std::string& name,
                      const std::vector<std::string>& over) {
  for (const auto& group : r.conditions.groups()) {
    const auto in_group = [&group](const std::string& axis) {
      return std::any_of(group.axes.begin(), group.axes.end(),
                         [&axis](const Axis& a) { return a.name == axis; });
    };
    if (in_group(name)) return std::any_of(over.begin(), over.end(), in_group);
  }
  return false;
}

}  // namespace

std::optional<Diagnostic> check_aggregate_weight(const WrittenWeight& written, const Requirement& r,
                                                 Aggregate& aggregate,
                                                 const std::set<std::string>& failed_axes) {
  const Statistic& statistic = aggregate.statistic;
  if (!statistic.weighted()) {
    if (!written.name) return std::nullopt;
    return Diagnostic{written.at, fmt::format("`weight:` goes with a weighted statistic "
                                              "(weighted_mean, weighted_fraction(<= x), "
                                              "weighted_quantile(q)), not '{}'",
                                              statistic.str())};
  }
  if (!written.name) {
    return Diagnostic{written.at,
                      fmt::format("`statistic: {}` needs `weight:`, the condition axis holding "
                                  "each case's weight (e.g. zip: {{case: [a, b], p_case: [0.9, "
                                  "0.1]}})",
                                  statistic.str())};
  }
  const std::string& name = *written.name;
  const Axis* axis = r.conditions.find_axis(name);
  if (axis == nullptr) {
    if (failed_axes.contains(name)) return std::nullopt;  // reported where it was written
    std::vector<std::string> known;
    for (const auto& g : r.conditions.groups()) {
      for (const auto& a : g.axes) known.push_back(a.name);
    }
    return Diagnostic{written.at,
                      fmt::format("weight '{}' is not a condition of this requirement{}; "
                                  "conditions: {}",
                                  name, detail::did_you_mean(name, known), detail::join(known))};
  }
  if (!varies_with_over(r, name, aggregate.over)) {
    return Diagnostic{written.at,
                      fmt::format("weight '{}' must vary with the aggregated axes ({}): be one "
                                  "of them or zipped with one, as zip: {{case: [...], {}: [...]}}",
                                  name, detail::join(aggregate.over), name)};
  }
  double sum = 0.0;
  for (const auto& v : axis->values) {
    if (!v.is_number() || !std::isfinite(v.as_number()) || v.as_number() < 0.0) {
      return Diagnostic{
          v.location.line > 0 ? v.location : written.at,
          fmt::format("weight '{}' must be a finite number >= 0, found {}", name, v.str())};
    }
    sum += v.as_number();
  }
  if (!(sum > 0.0)) {
    return Diagnostic{written.at, fmt::format("the weights '{}' are all zero; they are "
                                              "normalized by their sum, which must be positive",
                                              name)};
  }
  aggregate.weight = name;
  return std::nullopt;
}

}  // namespace simverify::framework::loader
