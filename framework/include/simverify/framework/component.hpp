#pragma once
// A component (Def 5.3): a named callable mapping one condition to a measurement. Components
// are registered from C++ (testsuites/ registers the simulator stack's); requirement files
// name them.
#include <simverify/framework/grid.hpp>
#include <simverify/framework/measurement.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {

struct ComponentInfo {
  std::string name;
  std::string description;
  // Condition axes the component understands; an entry ending in '*' is a prefix ("p.*").
  std::vector<std::string> axes;
  // Measures it produces; an entry ending in '*' is a prefix ("y.*").
  std::vector<std::string> measures;
};

// Checks one axis value before anything runs; returns an error message or nothing. Lets a
// component reject unknown models or methods at validation time, listing the known ones.
using AxisCheck = std::function<std::optional<std::string>(std::string_view axis, const Value&)>;
using Evaluate = std::function<Measurement(const Condition&)>;

// Checks conditions that must fit together (a model and its parameters, the state dimension
// and x0) before anything runs. The loader calls it once per distinct combination of the
// values of `axes` (an entry ending in '*' is a prefix), so it may be costlier than an
// AxisCheck; it sees the whole grid point.
struct ConditionCheck {
  std::vector<std::string> axes;
  std::function<std::optional<std::string>(const Condition&)> check;
  [[nodiscard]] bool reads(std::string_view axis) const;
};

struct Component {
  ComponentInfo info;
  Evaluate evaluate;
  AxisCheck check_axis;                                          // optional
  std::optional<ConditionCheck> check_condition = std::nullopt;  // optional

  [[nodiscard]] bool accepts_axis(std::string_view axis) const;
  [[nodiscard]] bool produces_measure(std::string_view measure) const;
};

class ComponentRegistry {
 public:
  void add(Component component);
  [[nodiscard]] const Component* find(std::string_view name) const;
  [[nodiscard]] std::vector<std::string> names() const;

  // The process-wide registry the CLI and the test adapters use.
  static ComponentRegistry& global();

 private:
  std::map<std::string, Component, std::less<>> components_;
};

}  // namespace simverify::framework
