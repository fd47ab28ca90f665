#include "quality_section.hpp"

#include "aggregate_weight.hpp"

#include "detail/text.hpp"
#include "measure_call.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <vector>

namespace simverify::framework::loader {
namespace {

const std::vector<std::string> kQualityKeys = {"measure", "compare", "aggregate", "threshold"};
const std::vector<std::string> kAggregateKeys = {"over", "statistic", "weight"};

void parse_compare(const YAML::Node& quality, const YAML::Node& c, Requirement& r,
                   yaml::LocatedErrors& errors, yaml::ValueReader& values) {
  r.quality.compare = values.read(c);
  if (!r.quality.compare) return;
  if (r.quality.measure.find('(') != std::string::npos) {
    errors.error(quality["measure"], fmt::format("with `compare:` the measure is the vector or "
                                                 "time series itself, not a reduction like '{}'",
                                                 r.quality.measure));
  }
  auto parsed =
      parse_comparison(*r.quality.compare, std::filesystem::path(errors.file()).parent_path());
  if (auto* e = std::get_if<CompareError>(&parsed)) {
    errors.error(e->location, e->message);
  } else {
    r.quality.comparison = std::move(std::get<Comparison>(parsed));
  }
}

// The statistics that need two points in each group (a slope, a sample standard deviation, a
// t-interval) against the grid: the group's size is the product of the sizes of the axis
// groups `over` names, known before anything runs.
std::optional<std::string> too_few_points(const Statistic& statistic,
                                          const std::vector<std::string>& over, const Grid& grid) {
  using Kind = Statistic::Kind;
  if (statistic.kind != Kind::order && statistic.kind != Kind::std &&
      statistic.kind != Kind::ci_upper && statistic.kind != Kind::ci_lower) {
    return std::nullopt;
  }
  std::size_t points = 1;
  for (const auto& group : grid.groups()) {
    const bool aggregated = std::any_of(group.axes.begin(), group.axes.end(), [&](const Axis& a) {
      return std::find(over.begin(), over.end(), a.name) != over.end();
    });
    if (aggregated) points *= group.size();
  }
  if (points >= 2) return std::nullopt;
  return fmt::format(
      "statistic '{}' needs at least 2 points in each group, and over [{}] the grid has {}: "
      "give {} several values",
      statistic.str(), detail::join(over), points, detail::join(over, " or "));
}

void parse_aggregate(const YAML::Node& node, Requirement& r,
                     const std::set<std::string>& failed_axes, yaml::LocatedErrors& errors) {
  if (!node.IsMap()) {
    errors.error(node, "`aggregate:` must be a mapping {over: [axes], statistic: S}");
    return;
  }
  errors.check_keys(node, kAggregateKeys, "aggregate");
  Aggregate aggregate;
  const YAML::Node over = node["over"];
  if (!over || !over.IsSequence() || over.size() == 0) {
    errors.error(over ? over : node, "`over:` must be a non-empty list of condition names");
    return;
  }
  for (const auto& axis : over) {
    const std::string name = axis.Scalar();
    if (r.conditions.find_axis(name) == nullptr) {
      if (failed_axes.contains(name)) return;  // already reported where it was written
      std::vector<std::string> known;
      for (const auto& g : r.conditions.groups()) {
        for (const auto& a : g.axes) known.push_back(a.name);
      }
      errors.error(axis, fmt::format("aggregate over '{}', which is not a condition of this "
                                     "requirement{}; conditions: {}",
                                     name, detail::did_you_mean(name, known), detail::join(known)));
      return;
    }
    aggregate.over.push_back(name);
  }
  auto text = errors.required_string(node, "statistic");
  if (!text) return;
  auto statistic = Statistic::parse(*text);
  if (!statistic) {
    // The hint compares the name before any "(": quantil(0.9) is near quantile.
    static const std::vector<std::string> kStatisticNames = {"mean",
                                                             "max",
                                                             "min",
                                                             "median",
                                                             "std",
                                                             "range",
                                                             "quantile",
                                                             "ci_upper",
                                                             "ci_lower",
                                                             "fraction",
                                                             "order",
                                                             "weighted_mean",
                                                             "weighted_fraction",
                                                             "weighted_quantile"};
    const std::string name = text->substr(0, text->find('('));
    const bool known_name =
        std::find(kStatisticNames.begin(), kStatisticNames.end(), name) != kStatisticNames.end();
    errors.error(
        node["statistic"],
        fmt::format("statistic '{}'{} must be one of: mean, max, min, median, std, range, "
                    "quantile(q), ci_upper(level), ci_lower(level), fraction(<= x), order, "
                    "weighted_mean, weighted_fraction(<= x), weighted_quantile(q)",
                    *text, known_name ? "" : detail::did_you_mean(name, kStatisticNames)));
    return;
  }
  if (statistic->kind == Statistic::Kind::order) {
    if (aggregate.over.size() != 1) {
      errors.error(over, "`statistic: order` needs exactly one numeric axis in `over:`");
      return;
    }
    for (const auto& v : r.conditions.find_axis(aggregate.over.front())->values) {
      if (!v.is_number() || !(v.as_number() > 0)) {
        errors.error(over.begin()->Mark(),
                     fmt::format("`statistic: order` needs positive numbers on axis '{}', found {}",
                                 aggregate.over.front(), v.str()));
        return;
      }
    }
  }
  if (auto problem = too_few_points(*statistic, aggregate.over, r.conditions)) {
    errors.error(node["statistic"], *problem);
    return;
  }
  aggregate.statistic = *statistic;
  const YAML::Node weight = node["weight"];
  const WrittenWeight written{
      weight && weight.IsScalar() ? std::optional(weight.Scalar()) : std::nullopt,
      errors.where(weight ? weight : node)};
  if (auto problem = check_aggregate_weight(written, r, aggregate, failed_axes)) {
    errors.error(problem->location, std::move(problem->message));
    return;
  }
  r.quality.aggregate = std::move(aggregate);
}

}  // namespace

void parse_quality(const YAML::Node& node, Requirement& r, const Component* component,
                   const std::set<std::string>& failed_axes, yaml::LocatedErrors& errors,
                   yaml::ValueReader& values) {
  if (!node.IsMap()) {
    errors.error(node, "`quality:` must be a mapping with `measure:` and `threshold:`");
    return;
  }
  errors.check_keys(node, kQualityKeys, "quality");
  if (auto measure = errors.required_string(node, "measure")) {
    r.quality.measure = *measure;
    r.quality.measure_location = errors.where(node["measure"]);
    const auto [reduction, base] = split_measure(*measure);
    const auto& reductions = measure_reductions();
    if (!reduction.empty() &&
        std::find(reductions.begin(), reductions.end(), reduction) == reductions.end()) {
      errors.error(
          node["measure"],
          fmt::format("unknown reduction '{}' in measure '{}'{}; known: {}", reduction, *measure,
                      detail::did_you_mean(reduction, reductions), detail::join(reductions)));
    } else if (component != nullptr && !component->produces_measure(base)) {
      errors.error(
          node["measure"],
          fmt::format("component '{}' does not measure '{}'{}; known: {}", component->info.name,
                      base, detail::did_you_mean(base, component->info.measures),
                      detail::join(component->info.measures)));
    }
  }
  if (const YAML::Node c = node["compare"]) parse_compare(node, c, r, errors, values);
  if (const YAML::Node a = node["aggregate"]) parse_aggregate(a, r, failed_axes, errors);
  if (auto text = errors.required_string(node, "threshold")) {
    if (auto t = Threshold::parse(*text)) {
      r.quality.threshold = *t;
    } else {
      // A strict bound is the likeliest slip: say what to write instead.
      std::string_view trimmed = *text;
      trimmed.remove_prefix(std::min(trimmed.find_first_not_of(' '), trimmed.size()));
      const bool strict = (trimmed.starts_with('<') || trimmed.starts_with('>')) &&
                          !trimmed.substr(1).starts_with('=');
      errors.error(node["threshold"],
                   fmt::format("threshold '{}' must read \">= Q_min\" or \"<= Q_max\" with a "
                               "finite number, e.g. \">= 3.9\" or \"<= 1e-6\"{}",
                               *text,
                               strict ? fmt::format(" (no strict bounds: write '{}={}', which "
                                                    "also passes at equality)",
                                                    trimmed.front(), trimmed.substr(1))
                                      : ""));
    }
  }
}

}  // namespace simverify::framework::loader
