#include <simverify/framework/component.hpp>

#include <simverify/core/fnv1a.hpp>
#include <simverify/framework/requirement.hpp>

#include <cmath>
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

Measurement Component::measure(const Condition& condition, const PointContext& context) const {
  if (evaluate_in_context) return evaluate_in_context(condition, context);
  return evaluate(condition);
}

std::uint64_t point_seed(const Requirement& requirement, std::size_t index) {
  if (const Value* seed = requirement.conditions.point(index).find("seed");
      seed != nullptr && !seed_problem(*seed)) {
    return static_cast<std::uint64_t>(seed->as_number());
  }
  const std::uint64_t h = core::fnv1a(requirement.id);
  // SplitMix64 finalizer (Steele, Lea and Flood 2014): neighbouring indices, far-apart seeds.
  std::uint64_t z = h + 0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(index) + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string AxisProblem::str() const {
  if (!location || location->line <= 0) return message;
  return location->str() + ": " + message;
}

std::optional<std::string> seed_problem(const Value& value) {
  const bool whole = value.is_number() && value.as_number() >= 0.0 &&
                     value.as_number() == std::floor(value.as_number()) &&
                     value.as_number() < 0x1p64;
  if (whole) return std::nullopt;
  return "a seed must be a whole number from 0 to 2^64 - 1, found " +
         std::string(value.type_name()) + " " + value.str();
}

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
