#include <simverify/framework/loader.hpp>

#include "detail/text.hpp"
#include "generators.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kRequirementKeys = {"id",      "title",      "description",
                                                   "level",   "component",  "conditions",
                                                   "quality", "depends_on", "trace"};
const std::vector<std::string> kQualityKeys = {"measure", "compare", "aggregate", "threshold"};
const std::vector<std::string> kAggregateKeys = {"over", "statistic"};

class DocumentParser {
 public:
  DocumentParser(std::string file, const ComponentRegistry& registry, LoadResult& out)
      : file_(std::move(file)), registry_(registry), out_(out) {}

  void parse(const std::string& text) {
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
      error(e.mark, "YAML syntax: " + e.msg);
      return;
    }
    if (!root.IsDefined() || root.IsNull()) {
      error(SourceLocation{file_, 1, 1},
            "the file is empty; expected a mapping with a `requirements:` list");
      return;
    }
    if (!root.IsMap()) {
      error(root, "expected a mapping with a `requirements:` list at the top of the file");
      return;
    }
    // A block-diagram file beside the packs (DIAGRAM-FORMAT.md): checked where a requirement
    // names it as its model, not read as requirements.
    if (root["diagram"] && !root["requirements"]) return;
    for (const auto& entry : root) {
      const auto key = entry.first.Scalar();
      if (key != "requirements") {
        error(entry.first, fmt::format("unknown top-level key '{}'; expected 'requirements'{}", key,
                                       detail::did_you_mean(key, {"requirements"})));
      }
    }
    const YAML::Node list = root["requirements"];
    if (!list || !list.IsSequence()) {
      error(list ? list : root, "expected `requirements:` to be a list of requirements");
      return;
    }
    for (const auto& node : list) parse_requirement(node);
  }

 private:
  SourceLocation where(const YAML::Mark& mark) const {
    return {file_, mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0};
  }
  SourceLocation where(const YAML::Node& node) const { return where(node.Mark()); }
  void error(const YAML::Mark& mark, std::string message) {
    out_.errors.push_back({where(mark), std::move(message)});
  }
  void error(const YAML::Node& node, std::string message) {
    error(node.Mark(), std::move(message));
  }
  void error(const SourceLocation& at, std::string message) {
    out_.errors.push_back({at, std::move(message)});
  }

  // YAML -> Value. Plain scalars that read as numbers or booleans become those; quoted
  // scalars stay strings.
  Value to_value(const YAML::Node& node) {
    Value v;
    if (!enter(node)) {
      v.location = where(node);
      return v;
    }
    if (node.IsScalar()) {
      const std::string& s = node.Scalar();
      const bool plain = node.Tag() != "!";
      if (plain && (s == "true" || s == "false")) {
        v = Value(s == "true");
      } else if (auto number = plain ? parse_number(s) : std::nullopt) {
        v = Value(*number);
      } else {
        v = Value(s);
      }
    } else if (node.IsSequence()) {
      Value::List list;
      for (const auto& item : node) list.push_back(to_value(item));
      v = Value(std::move(list));
    } else if (node.IsMap()) {
      Value::Map map;
      for (const auto& entry : node) {
        Value item = to_value(entry.second);
        const SourceLocation key = where(entry.first);
        item.key_line = key.line;
        item.key_column = key.column;
        map.emplace_back(entry.first.Scalar(), std::move(item));
      }
      v = Value(std::move(map));
    }
    v.location = where(node);
    open_.pop_back();
    return v;
  }

  // A file is small, but YAML aliases can make its values huge (a list of aliases of lists of
  // aliases: "billion laughs") or endless (an anchor used inside itself), which would exhaust
  // memory or the stack before anything is checked.
  bool enter(const YAML::Node& node) {
    if (std::any_of(open_.begin(), open_.end(), [&](const YAML::Node& n) { return n.is(node); })) {
      return refuse(node, "an alias refers to a value that contains it, so the value never ends");
    }
    // Too deep and too large are properties of the whole value: shown where it starts.
    const YAML::Node& whole = open_.empty() ? node : open_.front();
    if (open_.size() >= kMaxDepth) {
      return refuse(whole, fmt::format("a value nested more than {} levels deep", kMaxDepth));
    }
    if (++values_ > kMaxValues) {
      return refuse(whole, fmt::format("the file's values expand to more than {} (aliases of "
                                       "aliases?)",
                                       kMaxValues));
    }
    open_.push_back(node);
    return true;
  }

  // Once per requirement: the rest of an endless or huge value would only repeat it.
  bool refuse(const YAML::Node& at, std::string message) {
    if (!refused_) error(at, std::move(message));
    refused_ = true;
    ++refusals_;
    return false;
  }

  static std::optional<double> parse_number(const std::string& s) {
    if (s == ".inf" || s == "+.inf") return HUGE_VAL;
    if (s == "-.inf") return -HUGE_VAL;
    if (s == ".nan") return std::nan("");
    std::string_view view = s;
    if (!view.empty() && view.front() == '+') view.remove_prefix(1);
    double d = 0;
    auto [ptr, ec] = std::from_chars(view.data(), view.data() + view.size(), d);
    if (ec != std::errc() || ptr != view.data() + view.size() || view.empty()) return std::nullopt;
    return d;
  }

  // YAML leaves a repeated key to the reader; yaml-cpp keeps one silently, which would hide
  // a pasted-twice condition, so it is an error here.
  bool check_unique_keys(const YAML::Node& map, const std::string& what) {
    std::map<std::string, YAML::Mark> seen;
    bool ok = true;
    for (const auto& entry : map) {
      const std::string key = entry.first.Scalar();
      auto [it, inserted] = seen.emplace(key, entry.first.Mark());
      if (!inserted) {
        error(entry.first, fmt::format("duplicate key '{}' in {} (first at line {})", key, what,
                                       it->second.line + 1));
        ok = false;
      }
    }
    return ok;
  }

  void check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                  const std::string& what) {
    check_unique_keys(map, what);
    for (const auto& entry : map) {
      const std::string key = entry.first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        error(entry.first, fmt::format("unknown key '{}' in {}{}; expected one of: {}", key, what,
                                       detail::did_you_mean(key, allowed), detail::join(allowed)));
      }
    }
  }

  std::optional<std::string> required_string(const YAML::Node& map, const char* key,
                                             const YAML::Node& context) {
    const YAML::Node node = map[key];
    if (!node) {
      error(context, fmt::format("missing `{}:`", key));
      return std::nullopt;
    }
    if (!node.IsScalar() || node.Scalar().empty()) {
      error(node, fmt::format("`{}:` must be a non-empty string", key));
      return std::nullopt;
    }
    return node.Scalar();
  }

  void parse_requirement(const YAML::Node& node) {
    if (!node.IsMap()) {
      error(node,
            "expected a requirement (a mapping with id, level, component, conditions, "
            "quality)");
      return;
    }
    check_keys(node, requirement_keys(node), "requirement");
    Requirement r;
    r.location = where(node);
    failed_axes_.clear();
    refused_ = false;
    const std::size_t errors_before = out_.errors.size();

    if (auto id = required_string(node, "id", node)) {
      static const std::regex kIdPattern("[A-Z0-9._-]+");
      if (!std::regex_match(*id, kIdPattern)) {
        error(node["id"], fmt::format("id '{}' must match [A-Z0-9._-]+ (upper case, digits, "
                                      "'.', '_', '-')",
                                      *id));
      }
      r.id = *id;
      r.location = where(node["id"]);
    }
    if (node["title"]) {
      if (node["title"].IsScalar())
        r.title = node["title"].Scalar();
      else
        error(node["title"], "`title:` must be a string");
    }
    if (node["description"]) {
      if (node["description"].IsScalar())
        r.description = node["description"].Scalar();
      else
        error(node["description"], "`description:` must be a string");
    }
    if (auto level = required_string(node, "level", node)) {
      if (auto parsed = parse_level(*level)) {
        r.level = *parsed;
      } else {
        error(node["level"],
              fmt::format("level '{}' must be one of: unit, integration, system{}", *level,
                          detail::did_you_mean(*level, {"unit", "integration", "system"})));
      }
    }
    const Component* component = nullptr;
    if (auto name = required_string(node, "component", node)) {
      r.component = *name;
      component = registry_.find(*name);
      if (component == nullptr) {
        const auto known = registry_.names();
        error(node["component"],
              fmt::format("unknown component '{}'{}; known: {}", *name,
                          detail::did_you_mean(*name, known), detail::join(known)));
      }
    }
    if (const YAML::Node c = node["conditions"]) {
      parse_conditions(c, r, component);
      if (component != nullptr && out_.errors.size() == errors_before) {
        check_points(c, r, *component);
      }
    } else {
      error(node, "missing `conditions:` (use `conditions: {}` for a component without inputs)");
    }
    if (const YAML::Node q = node["quality"]) {
      parse_quality(q, r, component);
    } else {
      error(node, "missing `quality:` (measure and threshold)");
    }
    if (const YAML::Node d = node["depends_on"]) {
      if (!d.IsSequence()) {
        error(d, "`depends_on:` must be a list of requirement ids");
      } else {
        for (const auto& id : d) {
          if (!id.IsScalar())
            error(id, "`depends_on:` entries must be requirement ids");
          else
            r.depends_on.push_back(id.Scalar());
        }
      }
    }
    if (const YAML::Node t = node["trace"]) {
      if (!t.IsMap()) {
        error(t, "`trace:` must be a mapping such as {source: \"lecture notes Def 5.17\"}");
      } else {
        for (const auto& entry : t) {
          if (!entry.second.IsScalar()) {
            error(entry.second, fmt::format("trace '{}' must be a string", entry.first.Scalar()));
          } else {
            r.trace[entry.first.Scalar()] = entry.second.Scalar();
          }
        }
      }
    }
    if (component != nullptr) parse_component_fields(node, *component, r);
    if (component != nullptr && component->check_requirement &&
        out_.errors.size() == errors_before) {
      for (auto& problem : component->check_requirement(r))
        out_.errors.push_back(std::move(problem));
    }
    if (out_.errors.size() == errors_before) out_.requirements.push_back(std::move(r));
  }

  // The standard keys, plus those the named component reads from the requirement itself
  // (ComponentInfo::requirement_keys, e.g. the `command` component's `command:`).
  std::vector<std::string> requirement_keys(const YAML::Node& node) const {
    std::vector<std::string> keys = kRequirementKeys;
    const YAML::Node name = node["component"];
    if (const Component* c = name && name.IsScalar() ? registry_.find(name.Scalar()) : nullptr) {
      keys.insert(keys.end(), c->info.requirement_keys.begin(), c->info.requirement_keys.end());
    }
    return keys;
  }

  // The component's own keys, as written, for its check_requirement and evaluation.
  void parse_component_fields(const YAML::Node& node, const Component& component, Requirement& r) {
    for (const auto& entry : node) {
      const std::string key = entry.first.Scalar();
      const auto& own = component.info.requirement_keys;
      if (std::find(own.begin(), own.end(), key) == own.end()) continue;
      const std::size_t refusals = refusals_;
      Value value = to_value(entry.second);
      if (refusals_ != refusals) return;  // enter() said why
      const SourceLocation at = where(entry.first);
      value.key_line = at.line;
      value.key_column = at.column;
      r.fields.emplace_back(key, std::move(value));
    }
  }

  // `name_node` is the condition's name as written, `node` its value.
  std::optional<Axis> parse_axis(const YAML::Node& name_node, const YAML::Node& node,
                                 const Requirement& r, const Component* component) {
    const std::string name = name_node.Scalar();
    failed_axes_.insert(name);  // until it parsed
    Axis axis;
    axis.name = name;
    axis.location = where(node);
    if (component != nullptr && !component->accepts_axis(name)) {
      error(name_node,
            fmt::format("component '{}' has no condition '{}'{}; known: {}", component->info.name,
                        name, detail::did_you_mean(name, component->info.axes),
                        detail::join(component->info.axes)));
      return std::nullopt;
    }
    const std::size_t refusals = refusals_;
    const Value value = to_value(node);
    if (refusals_ != refusals) return std::nullopt;  // enter() said why
    if (value.is_list()) {
      axis.values = value.as_list();
      if (axis.values.empty()) {
        error(node,
              fmt::format("condition '{}' is an empty list: the grid would have no points", name));
        return std::nullopt;
      }
    } else if (generators::is_generator(value)) {
      auto expansion = generators::expand(value, r.id, name);
      if (expansion.error) {
        error(expansion.error_at.line > 0 ? expansion.error_at : where(node),
              fmt::format("condition '{}': {}", name, *expansion.error));
        return std::nullopt;
      }
      // Generated values keep no location of their own (errors point at the generator): a
      // copy of the file name per value would dominate memory on million-point grids.
      axis.values = std::move(expansion.values);
    } else {
      // Any other mapping is one structured value (e.g. an input signal {step: {...}}), but a
      // near-miss of a generator name is far more likely a typo than a value.
      if (value.is_map() && !value.as_map().empty()) {
        const auto& key = value.as_map().front().first;
        const auto& known = generators::names();
        const auto hint = detail::did_you_mean(key, known);
        if (!hint.empty() && std::find(known.begin(), known.end(), key) == known.end()) {
          error(value.as_map().front().second.key_location(),
                fmt::format("condition '{}': unknown generator '{}'{}", name, key, hint));
          return std::nullopt;
        }
      }
      axis.values = {value};
    }
    if (component != nullptr && component->check_axis) {
      for (const auto& v : axis.values) {
        if (auto problem = component->check_axis(name, v)) {
          error(v.location.line > 0 ? v.location : axis.location,
                fmt::format("condition '{}': {}", name, *problem));
          return std::nullopt;
        }
      }
    }
    failed_axes_.erase(name);
    return axis;
  }

  void parse_conditions(const YAML::Node& node, Requirement& r, const Component* component) {
    if (!node.IsMap()) {
      error(node, "`conditions:` must be a mapping from condition names to values");
      return;
    }
    if (!check_unique_keys(node, "conditions")) return;
    for (const auto& entry : node) {
      const std::string name = entry.first.Scalar();
      if (!entry.first.IsScalar() || name.empty()) {
        error(entry.first, "a condition name must be a non-empty string");
        continue;
      }
      if (name == "zip") {
        parse_zip(entry.second, r, component);
      } else if (auto axis = parse_axis(entry.first, entry.second, r, component)) {
        if (duplicate_axis(r, axis->name, entry.first)) continue;
        r.conditions.add_group(AxisGroup{{std::move(*axis)}});
      }
      if (!grid_within_limit(entry.first, r)) return;
    }
  }

  // Generators cap each axis, but the grid is their product: a few large axes (or one axis
  // aliased several times) would overflow its size, and checking or running it never ends.
  // Checked after each condition, so at most two large axes are ever expanded.
  bool grid_within_limit(const YAML::Node& key, const Requirement& r) {
    std::size_t points = 1;
    for (const auto& group : r.conditions.groups()) {
      if (points > generators::kMaxPoints / group.size()) {
        error(key, fmt::format("with condition '{}' the grid has more than {} points, the limit",
                               key.Scalar(), generators::kMaxPoints));
        return false;
      }
      points *= group.size();
    }
    return true;
  }

  // Where to point when point `index` fails the component's check: at the value of the first
  // axis it reads (in document order) without which the point passes, the one that does not
  // fit the others (x0 with three values for a two-state model, a parameter the model does
  // not have). Nothing when no single axis is to blame.
  static std::optional<SourceLocation> misfit_location(const ConditionCheck& check,
                                                       const Grid& grid, std::size_t index) {
    for (std::size_t g = 0; g < grid.groups().size(); ++g) {
      for (const Axis& suspect : grid.groups()[g].axes) {
        if (!check.reads(suspect.name)) continue;
        Grid without;
        for (std::size_t h = 0; h < grid.groups().size(); ++h) {
          for (const Axis& axis : grid.groups()[h].axes) {
            if (&axis == &suspect) continue;
            without.add_group(AxisGroup{
                {Axis{axis.name, {axis.values[grid.position(index, h)]}, axis.location}}});
          }
        }
        try {
          if (check.check(without.point(0))) continue;
        } catch (const std::exception&) {
          continue;
        }
        const Value& value = suspect.values[grid.position(index, g)];
        return value.location.line > 0 ? value.location : suspect.location;
      }
    }
    return std::nullopt;
  }

  // The component's check of conditions that must fit together, once per distinct
  // combination of the groups holding an axis it reads (all other axes cannot change its
  // answer), so a million-point grid over tolerances costs a handful of checks.
  void check_points(const YAML::Node& conditions, const Requirement& r,
                    const Component& component) {
    if (!component.check_condition) return;
    const ConditionCheck& check = *component.check_condition;
    const Grid& grid = r.conditions;
    std::vector<std::size_t> read_groups;
    for (std::size_t g = 0; g < grid.groups().size(); ++g) {
      const auto& axes = grid.groups()[g].axes;
      if (std::any_of(axes.begin(), axes.end(),
                      [&](const Axis& a) { return check.reads(a.name); })) {
        read_groups.push_back(g);
      }
    }
    std::set<std::vector<std::size_t>> seen;
    const std::size_t points =
        read_groups.empty() ? std::min<std::size_t>(grid.size(), 1) : grid.size();
    for (std::size_t i = 0; i < points; ++i) {
      std::vector<std::size_t> key;
      key.reserve(read_groups.size());
      for (const std::size_t g : read_groups) key.push_back(grid.position(i, g));
      if (!seen.insert(std::move(key)).second) continue;
      const Condition point = grid.point(i);
      std::optional<std::string> problem;
      try {
        problem = check.check(point);
      } catch (const std::exception& e) {
        problem = e.what();
      }
      if (problem) {
        std::string values;
        for (const auto& [axis, value] : point.entries()) {
          if (!check.reads(axis)) continue;
          values += fmt::format("{}{}: {}", values.empty() ? "" : ", ", axis, value->str());
        }
        error(misfit_location(check, grid, i).value_or(where(conditions)),
              values.empty() ? *problem : fmt::format("conditions ({}): {}", values, *problem));
        return;
      }
    }
  }

  // A condition may appear once: both as a plain axis and inside `zip:` would be ambiguous.
  bool duplicate_axis(const Requirement& r, const std::string& name, const YAML::Node& key) {
    if (const Axis* first = r.conditions.find_axis(name)) {
      error(key, fmt::format("condition '{}' is given twice (first at {})", name,
                             first->location.str()));
      return true;
    }
    return false;
  }

  void parse_zip(const YAML::Node& node, Requirement& r, const Component* component) {
    if (!node.IsMap() || node.size() == 0) {
      error(node, "`zip:` must be a mapping of conditions that vary together, each a list");
      return;
    }
    if (!check_unique_keys(node, "zip")) return;
    AxisGroup group;
    for (const auto& entry : node) {
      auto axis = parse_axis(entry.first, entry.second, r, component);
      if (!axis) return;
      if (entry.first.Scalar() == "zip") {
        error(entry.first, "`zip:` cannot be nested");
        return;
      }
      if (duplicate_axis(r, axis->name, entry.first)) return;
      if (!group.axes.empty() && axis->values.size() != group.axes.front().values.size()) {
        error(entry.second,
              fmt::format("zip: '{}' has {} values but '{}' has {}; zipped conditions must have "
                          "equal lengths",
                          axis->name, axis->values.size(), group.axes.front().name,
                          group.axes.front().values.size()));
        return;
      }
      group.axes.push_back(std::move(*axis));
    }
    r.conditions.add_group(std::move(group));
  }

  void parse_quality(const YAML::Node& node, Requirement& r, const Component* component) {
    if (!node.IsMap()) {
      error(node, "`quality:` must be a mapping with `measure:` and `threshold:`");
      return;
    }
    check_keys(node, kQualityKeys, "quality");
    if (auto measure = required_string(node, "measure", node)) {
      r.quality.measure = *measure;
      r.quality.measure_location = where(node["measure"]);
      std::string base = *measure;
      if (const auto open = base.find('('); open != std::string::npos && base.back() == ')') {
        base = base.substr(open + 1, base.size() - open - 2);
      }
      if (component != nullptr && !component->produces_measure(base)) {
        error(node["measure"],
              fmt::format("component '{}' does not measure '{}'{}; known: {}", component->info.name,
                          base, detail::did_you_mean(base, component->info.measures),
                          detail::join(component->info.measures)));
      }
    }
    if (const YAML::Node c = node["compare"]) parse_compare(node, c, r);
    if (const YAML::Node a = node["aggregate"]) parse_aggregate(a, r);
    if (auto text = required_string(node, "threshold", node)) {
      if (auto t = Threshold::parse(*text)) {
        r.quality.threshold = *t;
      } else {
        error(node["threshold"],
              fmt::format("threshold '{}' must read \">= Q_min\" or \"<= Q_max\" with a finite "
                          "number, e.g. \">= 3.9\" or \"<= 1e-6\"",
                          *text));
      }
    }
  }

  void parse_compare(const YAML::Node& quality, const YAML::Node& c, Requirement& r) {
    const std::size_t refusals = refusals_;
    r.quality.compare = to_value(c);
    if (refusals_ != refusals) return;  // enter() said why
    if (r.quality.measure.find('(') != std::string::npos) {
      error(quality["measure"], fmt::format("with `compare:` the measure is the vector or time "
                                            "series itself, not a reduction like '{}'",
                                            r.quality.measure));
    }
    auto parsed = parse_comparison(*r.quality.compare, fs::path(file_).parent_path());
    if (auto* e = std::get_if<CompareError>(&parsed)) {
      error(e->location, e->message);
    } else {
      r.quality.comparison = std::move(std::get<Comparison>(parsed));
    }
  }

  void parse_aggregate(const YAML::Node& node, Requirement& r) {
    if (!node.IsMap()) {
      error(node, "`aggregate:` must be a mapping {over: [axes], statistic: S}");
      return;
    }
    check_keys(node, kAggregateKeys, "aggregate");
    Aggregate aggregate;
    const YAML::Node over = node["over"];
    if (!over || !over.IsSequence() || over.size() == 0) {
      error(over ? over : node, "`over:` must be a non-empty list of condition names");
      return;
    }
    for (const auto& axis : over) {
      const std::string name = axis.Scalar();
      if (r.conditions.find_axis(name) == nullptr) {
        if (failed_axes_.contains(name)) return;  // already reported where it was written
        std::vector<std::string> known;
        for (const auto& g : r.conditions.groups()) {
          for (const auto& a : g.axes) known.push_back(a.name);
        }
        error(axis, fmt::format("aggregate over '{}', which is not a condition of this "
                                "requirement{}; conditions: {}",
                                name, detail::did_you_mean(name, known), detail::join(known)));
        return;
      }
      aggregate.over.push_back(name);
    }
    auto text = required_string(node, "statistic", node);
    if (!text) return;
    auto statistic = Statistic::parse(*text);
    if (!statistic) {
      error(node["statistic"],
            fmt::format("statistic '{}' must be one of: mean, max, min, range, median, std, "
                        "quantile(q), ci_upper(level), ci_lower(level), fraction(<= x), order",
                        *text));
      return;
    }
    if (statistic->kind == Statistic::Kind::order) {
      if (aggregate.over.size() != 1) {
        error(over, "`statistic: order` needs exactly one numeric axis in `over:`");
        return;
      }
      for (const auto& v : r.conditions.find_axis(aggregate.over.front())->values) {
        if (!v.is_number() || !(v.as_number() > 0)) {
          error(over.begin()->Mark(),
                fmt::format("`statistic: order` needs positive numbers on axis '{}', found {}",
                            aggregate.over.front(), v.str()));
          return;
        }
      }
    }
    aggregate.statistic = *statistic;
    r.quality.aggregate = std::move(aggregate);
  }

  static constexpr std::size_t kMaxDepth = 100;
  static constexpr std::size_t kMaxValues = 100'000;
  std::vector<YAML::Node> open_;  // the nodes to_value is inside, outermost first
  std::size_t values_ = 0;        // converted so far in this file
  bool refused_ = false;          // enter() refused a value of the current requirement
  std::size_t refusals_ = 0;      // so callers of to_value see a refusal inside it

  std::string file_;
  // Conditions of the current requirement that had errors, so `aggregate: over:` does not
  // report them a second time as unknown.
  std::set<std::string> failed_axes_;
  const ComponentRegistry& registry_;
  LoadResult& out_;
};

Diagnostic file_error(const fs::path& path, std::string message) {
  Diagnostic d;
  d.location.file = path.string();
  d.message = std::move(message);
  return d;
}

void check_cross_file(LoadResult& out) {
  std::map<std::string, const Requirement*> by_id;
  for (const auto& r : out.requirements) {
    auto [it, inserted] = by_id.emplace(r.id, &r);
    if (!inserted) {
      out.errors.push_back({r.location, fmt::format("duplicate id '{}' (first defined at {})", r.id,
                                                    it->second->location.str())});
    }
  }
  std::vector<std::string> ids;
  for (const auto& [id, r] : by_id) ids.push_back(id);
  for (const auto& r : out.requirements) {
    for (const auto& dep : r.depends_on) {
      auto it = by_id.find(dep);
      if (it == by_id.end()) {
        out.errors.push_back({r.location, fmt::format("'{}' depends on unknown requirement '{}'{}",
                                                      r.id, dep, detail::did_you_mean(dep, ids))});
      } else if (it->second->level > r.level) {
        // Alg 11 runs unit -> integration -> system: a dependency on a later level could
        // never be decided first.
        out.errors.push_back(
            {r.location, fmt::format("{} requirement '{}' cannot depend on {} requirement '{}': "
                                     "levels run unit -> integration -> system",
                                     to_string(r.level), r.id, to_string(it->second->level), dep)});
      }
    }
  }
  // Dependency cycles (depth-first search with colours).
  std::map<std::string, int> colour;  // 0 new, 1 on stack, 2 done
  std::vector<std::string> stack;
  std::function<void(const Requirement&)> visit = [&](const Requirement& r) {
    colour[r.id] = 1;
    stack.push_back(r.id);
    for (const auto& dep : r.depends_on) {
      auto it = by_id.find(dep);
      if (it == by_id.end()) continue;
      if (colour[dep] == 1) {
        auto from = std::find(stack.begin(), stack.end(), dep);
        std::vector<std::string> cycle(from, stack.end());
        cycle.push_back(dep);
        out.errors.push_back(
            {it->second->location, "dependency cycle: " + detail::join(cycle, " -> ")});
      } else if (colour[dep] == 0) {
        visit(*it->second);
      }
    }
    stack.pop_back();
    colour[r.id] = 2;
  };
  for (const auto& [id, r] : by_id) {
    if (colour[id] == 0) visit(*r);
  }
}

}  // namespace

void parse_requirements(const std::string& text, const std::string& file_name,
                        const ComponentRegistry& registry, LoadResult& into) {
  DocumentParser(file_name, registry, into).parse(text);
}

LoadResult load_requirements(const std::vector<fs::path>& paths,
                             const ComponentRegistry& registry) {
  LoadResult out;
  for (const auto& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> found;
      for (auto it = fs::recursive_directory_iterator(path, ec);
           it != fs::recursive_directory_iterator(); it.increment(ec)) {
        // Sub-folders named `examples` hold demonstrations (some fail on purpose, e.g.
        // requirements/examples/failing): they run only when named explicitly.
        if (it->is_directory() && it->path().filename() == "examples") {
          it.disable_recursion_pending();
          continue;
        }
        // simverify.yaml is the project file (gate settings), not a requirement pack.
        if (it->is_regular_file() && it->path().extension() == ".yaml" &&
            it->path().filename() != "simverify.yaml") {
          found.push_back(it->path());
        }
      }
      std::sort(found.begin(), found.end());
      if (found.empty()) {
        out.errors.push_back(file_error(path, "folder contains no *.yaml files"));
      }
      out.files.insert(out.files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(path, ec)) {
      out.files.push_back(path);
    } else {
      out.errors.push_back(file_error(path, "no such file or folder"));
    }
  }
  for (const auto& file : out.files) {
    std::ifstream in(file);
    if (!in) {
      out.errors.push_back(file_error(file, "cannot read file"));
      continue;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    parse_requirements(buffer.str(), file.string(), registry, out);
  }
  check_cross_file(out);
  if (!out.ok()) out.requirements.clear();
  return out;
}

}  // namespace simverify::framework
