#include <simverify/framework/grid.hpp>

#include <fmt/format.h>

#include <stdexcept>

namespace simverify::framework {

void Grid::add_group(AxisGroup group) {
  groups_.push_back(std::move(group));
  // Strides: the last group varies fastest, like nested loops in file order.
  strides_.assign(groups_.size(), 1);
  for (std::size_t g = groups_.size(); g-- > 1;) {
    strides_[g - 1] = strides_[g] * groups_[g].size();
  }
}

std::size_t Grid::size() const {
  std::size_t n = 1;
  for (const auto& g : groups_) n *= g.size();
  return n;
}

std::size_t Grid::position(std::size_t index, std::size_t group) const {
  return (index / strides_[group]) % groups_[group].size();
}

const Axis* Grid::find_axis(std::string_view name) const {
  for (const auto& g : groups_) {
    for (const auto& a : g.axes) {
      if (a.name == name) return &a;
    }
  }
  return nullptr;
}

Condition::Condition(const Grid& grid, std::size_t index) : grid_(&grid), index_(index) {}

const Value* Condition::find(std::string_view axis) const {
  const auto& groups = grid_->groups();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (const auto& a : groups[g].axes) {
      if (a.name == axis) return &a.values[grid_->position(index_, g)];
    }
  }
  return nullptr;
}

const Value& Condition::at(std::string_view axis) const {
  const Value* v = find(axis);
  if (v == nullptr) throw std::invalid_argument(fmt::format("condition '{}' is missing", axis));
  return *v;
}

namespace {

double axis_number(std::string_view axis, const Value& v) {
  if (!v.is_number()) {
    throw std::invalid_argument(
        fmt::format("condition '{}' must be a number, found {}", axis, v.type_name()));
  }
  return v.as_number();
}

const std::string& axis_text(std::string_view axis, const Value& v) {
  if (!v.is_string()) {
    throw std::invalid_argument(
        fmt::format("condition '{}' must be a name, found {}", axis, v.type_name()));
  }
  return v.as_string();
}

}  // namespace

double Condition::number(std::string_view axis) const {
  return axis_number(axis, at(axis));
}

// One search for the axis (these run many times per point).
double Condition::number_or(std::string_view axis, double fallback) const {
  const Value* v = find(axis);
  return v != nullptr ? axis_number(axis, *v) : fallback;
}

std::string Condition::text(std::string_view axis) const {
  return axis_text(axis, at(axis));
}

std::string Condition::text_or(std::string_view axis, std::string fallback) const {
  const Value* v = find(axis);
  if (v == nullptr) return fallback;
  return axis_text(axis, *v);
}

std::vector<std::pair<std::string_view, const Value*>> Condition::entries() const {
  std::vector<std::pair<std::string_view, const Value*>> out;
  const auto& groups = grid_->groups();
  std::size_t axes = 0;
  for (const auto& g : groups) axes += g.axes.size();
  out.reserve(axes);  // one allocation: this runs for every point, more than once
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::size_t pos = grid_->position(index_, g);
    for (const auto& a : groups[g].axes) out.emplace_back(a.name, &a.values[pos]);
  }
  return out;
}

}  // namespace simverify::framework
