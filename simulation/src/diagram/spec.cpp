#include <simverify/simulation/diagram/spec.hpp>

namespace simverify::simulation::diagram {

std::string Origin::str() const {
  if (file.empty() && line == 0) return "";
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

namespace {
std::string located(const Origin& where, const std::string& message) {
  const std::string at = where.str();
  return at.empty() ? message : at + ": " + message;
}
}  // namespace

DiagramError::DiagramError(Origin where, const std::string& message)
    : std::invalid_argument(located(where, message)), where_(std::move(where)), message_(message) {}

const Param* BlockSpec::find(std::string_view param) const {
  for (const auto& p : params) {
    if (p.name == param) return &p;
  }
  return nullptr;
}

}  // namespace simverify::simulation::diagram
