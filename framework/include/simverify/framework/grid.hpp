#pragma once
// The specified-conditions grid (Def 5.5, 5.14): the Cartesian product of axes, where axes
// listed together under `zip:` vary together. A Condition is one point of it, a cheap view
// (the grid owns the values).
#include <simverify/framework/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework {

struct Axis {
  std::string name;
  std::vector<Value> values;
  SourceLocation location;
  // The generator the values came from, as written ({logspace: [-4, -2, 5]}); none for values
  // listed one by one. Errors about a value can then speak of how it was written.
  std::optional<Value> generator = std::nullopt;
};

// Axes that vary together (one for a plain axis, several for a zip group).
struct AxisGroup {
  std::vector<Axis> axes;
  [[nodiscard]] std::size_t size() const { return axes.empty() ? 0 : axes.front().values.size(); }
};

class Grid;

class Condition {
 public:
  Condition(const Grid& grid, std::size_t index);

  [[nodiscard]] std::size_t index() const { return index_; }
  [[nodiscard]] const Value* find(std::string_view axis) const;
  // Typed access; throws std::invalid_argument naming the axis when missing or mistyped.
  [[nodiscard]] const Value& at(std::string_view axis) const;
  [[nodiscard]] double number(std::string_view axis) const;
  [[nodiscard]] double number_or(std::string_view axis, double fallback) const;
  [[nodiscard]] std::string text(std::string_view axis) const;
  [[nodiscard]] std::string text_or(std::string_view axis, std::string fallback) const;
  [[nodiscard]] bool has(std::string_view axis) const { return find(axis) != nullptr; }

  // (axis name, value) in grid order.
  [[nodiscard]] std::vector<std::pair<std::string_view, const Value*>> entries() const;

 private:
  const Grid* grid_;
  std::size_t index_;
};

class Grid {
 public:
  void add_group(AxisGroup group);

  [[nodiscard]] std::size_t size() const;  // number of points (product of group sizes)
  [[nodiscard]] Condition point(std::size_t index) const { return Condition(*this, index); }
  [[nodiscard]] const std::vector<AxisGroup>& groups() const { return groups_; }
  [[nodiscard]] const Axis* find_axis(std::string_view name) const;

  // Position of point `index` along group `group` (the last group varies fastest).
  [[nodiscard]] std::size_t position(std::size_t index, std::size_t group) const;
  // How far the index moves when group `group`'s position grows by one.
  [[nodiscard]] std::size_t stride(std::size_t group) const { return strides_[group]; }

 private:
  std::vector<AxisGroup> groups_;
  std::vector<std::size_t> strides_;
};

}  // namespace simverify::framework
