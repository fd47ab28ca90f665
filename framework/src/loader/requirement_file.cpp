// One requirement file: its top level and each requirement's own fields; the sections with
// more to them (conditions, quality) and the checks across sections live beside this file.
#include "condition_check.hpp"
#include "conditions_section.hpp"
#include "detail/text.hpp"
#include "quality_section.hpp"
#include "yaml/document.hpp"
#include "yaml/located_errors.hpp"
#include "yaml/value_reader.hpp"

#include <simverify/framework/loader.hpp>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace simverify::framework {
namespace {

constexpr std::size_t kMaxIdLength = 200;

const std::vector<std::string> kRequirementKeys = {"id",      "title",      "description",
                                                   "level",   "component",  "conditions",
                                                   "quality", "depends_on", "trace"};

class RequirementFile {
 public:
  RequirementFile(const std::string& file, const ComponentRegistry& registry, LoadResult& out)
      : errors_(file, out.errors), values_(errors_), registry_(registry), out_(out) {}

  void parse(const std::string& text) {
    values_.read_text_of(text.size());
    const auto document = yaml::read_document(text, errors_);
    if (!document) return;
    const YAML::Node& root = *document;
    if (!root.IsDefined() || root.IsNull()) {
      errors_.error(SourceLocation{errors_.file(), 1, 1},
                    "the file is empty; expected a mapping with a `requirements:` list");
      return;
    }
    if (!root.IsMap()) {
      errors_.error(root, "expected a mapping with a `requirements:` list at the top of the file");
      return;
    }
    // A block-diagram file beside the packs (DIAGRAM-FORMAT.md): checked where a requirement
    // names it as its model, not read as requirements.
    if (root["diagram"] && !root["requirements"]) return;
    for (const auto& entry : root) {
      const auto key = entry.first.Scalar();
      // A hidden key holds settings to anchor and merge, as GitLab CI's `.name:` jobs do.
      if (key != "requirements" && !key.starts_with('.')) {
        errors_.error(entry.first,
                      fmt::format("unknown top-level key '{}'; expected 'requirements'{}", key,
                                  detail::did_you_mean(key, {"requirements"})));
      }
    }
    const YAML::Node list = root["requirements"];
    if (!list || !list.IsSequence()) {
      errors_.error(list ? list : root, "expected `requirements:` to be a list of requirements");
      return;
    }
    for (const auto& node : list) parse_requirement(node);
  }

 private:
  void parse_requirement(const YAML::Node& node) {
    if (!node.IsMap()) {
      errors_.error(node,
                    "expected a requirement (a mapping with id, level, component, conditions, "
                    "quality)");
      return;
    }
    errors_.check_keys(node, requirement_keys(node), "requirement");
    Requirement r;
    r.location = errors_.where(node);
    values_.start_requirement();
    const std::size_t errors_before = errors_.count();

    parse_id(node, r);
    parse_text(node, "title", r.title);
    parse_text(node, "description", r.description);
    if (auto level = errors_.required_string(node, "level")) {
      if (auto parsed = parse_level(*level)) {
        r.level = *parsed;
      } else {
        errors_.error(node["level"],
                      fmt::format("level '{}' must be one of: unit, integration, system{}", *level,
                                  detail::did_you_mean(*level, {"unit", "integration", "system"})));
      }
    }
    const Component* component = nullptr;
    if (auto name = errors_.required_string(node, "component")) {
      r.component = *name;
      component = registry_.find(*name);
      if (component == nullptr) {
        const auto known = registry_.names();
        errors_.error(node["component"],
                      fmt::format("unknown component '{}'{}; known: {}", *name,
                                  detail::did_you_mean(*name, known), detail::join(known)));
      }
    }
    // The weight axis a weighted aggregate names is the runner's, not the component's.
    std::set<std::string> runner_axes;
    if (const YAML::Node q = node["quality"]; q && q.IsMap()) {
      if (const YAML::Node a = q["aggregate"]; a && a.IsMap()) {
        if (const YAML::Node w = a["weight"]; w && w.IsScalar()) runner_axes.insert(w.Scalar());
      }
    }
    loader::ConditionsSection conditions(errors_, values_, std::move(runner_axes));
    if (const YAML::Node c = node["conditions"]) {
      conditions.parse(c, r, component);
      if (component != nullptr && errors_.count() == errors_before) {
        if (auto misfit = loader::check_grid_points(r, *component, errors_.where(c))) {
          errors_.add(std::move(*misfit));
        }
      }
    } else {
      errors_.error(node,
                    "missing `conditions:` (use `conditions: {}` for a component without inputs)");
    }
    if (const YAML::Node q = node["quality"]) {
      loader::parse_quality(q, r, component, conditions.failed_axes(), errors_, values_);
    } else {
      errors_.error(node, "missing `quality:` (measure and threshold)");
    }
    parse_depends_on(node, r);
    parse_trace(node, r);
    if (component != nullptr) parse_component_fields(node, *component, r);
    if (component != nullptr && component->check_requirement && errors_.count() == errors_before) {
      for (auto& problem : component->check_requirement(r)) errors_.add(std::move(problem));
    }
    if (errors_.count() == errors_before) out_.requirements.push_back(std::move(r));
  }

  void parse_id(const YAML::Node& node, Requirement& r) {
    auto id = errors_.required_string(node, "id");
    if (!id) return;
    // A loop, not std::regex: libstdc++'s matcher recurses per character, and a 50,000
    // character id would overflow the stack.
    const auto allowed = [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    };
    if (!std::all_of(id->begin(), id->end(), allowed)) {
      errors_.error(node["id"], fmt::format("id '{}' must match [A-Z0-9._-]+ (upper case, digits, "
                                            "'.', '_', '-')",
                                            *id));
    } else if (id->find_first_not_of('.') == std::string::npos) {
      // "." and ".." fit the pattern, but an id names a folder of the results (series/<id>/).
      errors_.error(node["id"], fmt::format("id '{}' needs a letter or a digit: an id names the "
                                            "folder of its series files, and '{}' names another",
                                            *id, *id));
    } else if (id->size() > kMaxIdLength) {
      // Found at load, not after the run computed everything: the results folder could not
      // hold its series (a file name has at most 255 bytes, and suffixes are added).
      errors_.error(node["id"], fmt::format("id is {} characters long; at most {} (an id names "
                                            "the folder of its series files, series/<id>/)",
                                            id->size(), kMaxIdLength));
    }
    r.id = *id;
    r.location = errors_.where(node["id"]);
  }

  // An optional free-text field (title, description).
  void parse_text(const YAML::Node& node, const char* key, std::string& into) {
    const YAML::Node text = node[key];
    if (!text) return;
    if (text.IsScalar()) {
      into = text.Scalar();
    } else {
      errors_.error(text, fmt::format("`{}:` must be a string", key));
    }
  }

  void parse_depends_on(const YAML::Node& node, Requirement& r) {
    const YAML::Node d = node["depends_on"];
    if (!d) return;
    if (!d.IsSequence()) {
      errors_.error(d, "`depends_on:` must be a list of requirement ids");
      return;
    }
    for (const auto& id : d) {
      if (!id.IsScalar()) {
        errors_.error(id, "`depends_on:` entries must be requirement ids");
      } else {
        r.depends_on.push_back(id.Scalar());
      }
    }
  }

  void parse_trace(const YAML::Node& node, Requirement& r) {
    const YAML::Node t = node["trace"];
    if (!t) return;
    if (!t.IsMap()) {
      errors_.error(t, "`trace:` must be a mapping such as {source: \"lecture notes Def 5.17\"}");
      return;
    }
    for (const auto& entry : t) {
      if (!entry.second.IsScalar()) {
        errors_.error(entry.second,
                      fmt::format("trace '{}' must be a string", entry.first.Scalar()));
      } else {
        r.trace[entry.first.Scalar()] = entry.second.Scalar();
      }
    }
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
    const auto& own = component.info.requirement_keys;
    for (const auto& entry : node) {
      const std::string key = entry.first.Scalar();
      if (std::find(own.begin(), own.end(), key) == own.end()) continue;
      auto value = values_.read(entry.second);
      if (!value) return;  // the reader said why
      const SourceLocation at = errors_.where(entry.first);
      value->key_line = at.line;
      value->key_column = at.column;
      r.fields.emplace_back(key, std::move(*value));
    }
  }

  yaml::LocatedErrors errors_;
  yaml::ValueReader values_;
  const ComponentRegistry& registry_;
  LoadResult& out_;
};

}  // namespace

void parse_requirements(const std::string& text, const std::string& file_name,
                        const ComponentRegistry& registry, LoadResult& into) {
  RequirementFile(file_name, registry, into).parse(text);
}

}  // namespace simverify::framework
