#pragma once
// A requirement is the triple (component, specified conditions, quality) (Def 5.6) with the
// threshold that decides releasability (Def 5.17), its level (Def 5.13), dependencies and
// trace links.
#include <simverify/framework/grid.hpp>
#include <simverify/framework/quality.hpp>
#include <simverify/framework/value.hpp>

#include <map>
#include <string>
#include <vector>

namespace simverify::framework {

enum class Level { unit = 0, integration = 1, system = 2 };

[[nodiscard]] const char* to_string(Level level);
[[nodiscard]] std::optional<Level> parse_level(std::string_view text);

struct Requirement {
  std::string id;
  std::string title;
  std::string description;
  Level level = Level::unit;
  std::string component;
  Grid conditions;
  Quality quality;
  std::vector<std::string> depends_on;
  std::map<std::string, std::string> trace;  // source, code, tests, ...
  SourceLocation location;                   // of the requirement's `id:` entry
  // The component's own requirement keys (ComponentInfo::requirement_keys) as written, e.g.
  // the `command` component's `command:` and `measures:`.
  Value::Map fields;
  [[nodiscard]] const Value* field(std::string_view key) const;
};

}  // namespace simverify::framework
