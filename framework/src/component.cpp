#include <simverify/framework/component.hpp>

#include <stdexcept>

namespace simverify::framework {
namespace {

bool matches(const std::vector<std::string>& patterns, std::string_view name) {
  for (const auto& p : patterns) {
    if (!p.empty() && p.back() == '*') {
      if (name.substr(0, p.size() - 1) == std::string_view(p).substr(0, p.size() - 1)) return true;
    } else if (p == name) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool ConditionCheck::reads(std::string_view axis) const {
  return matches(axes, axis);
}

bool Component::accepts_axis(std::string_view axis) const {
  return matches(info.axes, axis);
}

bool Component::produces_measure(std::string_view measure) const {
  return matches(info.measures, measure);
}

void ComponentRegistry::add(Component component) {
  if (component.info.name.empty()) throw std::invalid_argument("component without a name");
  auto name = component.info.name;
  components_.insert_or_assign(std::move(name), std::move(component));
}

const Component* ComponentRegistry::find(std::string_view name) const {
  auto it = components_.find(name);
  return it == components_.end() ? nullptr : &it->second;
}

std::vector<std::string> ComponentRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, c] : components_) out.push_back(name);
  return out;
}

ComponentRegistry& ComponentRegistry::global() {
  static ComponentRegistry registry;
  return registry;
}

}  // namespace simverify::framework
