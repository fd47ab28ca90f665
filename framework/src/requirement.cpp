#include <simverify/framework/requirement.hpp>
#include <simverify/framework/results.hpp>

namespace simverify::framework {

const char* to_string(Level level) {
  switch (level) {
    case Level::unit: return "unit";
    case Level::integration: return "integration";
    case Level::system: return "system";
  }
  return "?";
}

const Value* Requirement::field(std::string_view key) const {
  for (const auto& [name, value] : fields) {
    if (name == key) return &value;
  }
  return nullptr;
}

std::optional<Level> parse_level(std::string_view text) {
  if (text == "unit") return Level::unit;
  if (text == "integration") return Level::integration;
  if (text == "system") return Level::system;
  return std::nullopt;
}

const char* to_string(Status status) {
  switch (status) {
    case Status::passed: return "passed";
    case Status::failed: return "failed";
    case Status::error: return "error";
    case Status::skipped: return "skipped";
  }
  return "?";
}

}  // namespace simverify::framework
