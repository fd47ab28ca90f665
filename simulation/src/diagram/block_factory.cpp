#include "block_factory.hpp"

#include <algorithm>
#include <array>
#include <simverify/core/text.hpp>
#include <sstream>
#include <string_view>

namespace simverify::simulation::diagram::detail {

int ParameterTable::add(std::string name, double value, std::string description) {
  specs.push_back({std::move(name), value, "", std::move(description)});
  return static_cast<int>(specs.size()) - 1;
}

std::vector<double> ParameterTable::defaults() const {
  std::vector<double> out;
  for (const auto& spec : specs) out.push_back(spec.default_value);
  return out;
}

int Scope::find(std::string_view name) const {
  for (const auto& [n, index] : names) {
    if (n == name) return index;
  }
  return -1;
}

std::vector<std::string> Scope::known() const {
  std::vector<std::string> out;
  for (const auto& entry : names) out.push_back(entry.first);
  return out;
}

void BlockBuilder::fail(const std::string& message) const {
  throw DiagramError(spec_.origin, "block '" + name_ + "' (" + spec_.type + "): " + message);
}

void BlockBuilder::fail(const Param& at, const std::string& message) const {
  throw DiagramError(at.origin, "block '" + name_ + "' (" + spec_.type + "), parameter '" +
                                    at.name + "': " + message);
}

const Param& BlockBuilder::required(std::string_view param) const {
  const Param* p = spec_.find(param);
  if (p == nullptr) fail("missing parameter '" + std::string(param) + "'");
  return *p;
}

int BlockBuilder::scalar(std::string_view param) {
  const Param& p = required(param);
  if (p.is_text) {
    const int index = scope_.find(p.text);
    if (index < 0) {
      fail(p, "'" + p.text + "' is no number and no diagram parameter" +
                  core::did_you_mean(p.text, scope_.known()) +
                  "; diagram parameters: " + core::join_or_none(scope_.known()));
    }
    return index;
  }
  if (!p.is_scalar()) fail(p, "expected a number");
  return table_.add(name_ + "." + p.name, p.values.front(),
                    "parameter " + p.name + " of block " + name_);
}

int BlockBuilder::scalar_or(std::string_view param, double fallback) {
  if (has(param)) return scalar(param);
  return table_.add(name_ + "." + std::string(param), fallback,
                    "parameter " + std::string(param) + " of block " + name_);
}

int BlockBuilder::optional_scalar(std::string_view param) {
  return has(param) ? scalar(param) : -1;
}

std::vector<double> BlockBuilder::list(std::string_view param) {
  const Param& p = required(param);
  if (p.is_text || (p.rows > 1 && p.cols > 1)) fail(p, "expected a number or a list of numbers");
  return p.values;
}

Elements BlockBuilder::add_elements(const std::string& param, const std::vector<double>& values,
                                    int rows, int cols, bool matrix) {
  Elements e{static_cast<int>(table_.specs.size()), rows, cols};
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      // (append, not operator+: g++ 12 reports a false -Wrestrict for "[" + std::string)
      std::string index = "[";
      if (matrix) index.append(std::to_string(r)).append("][");
      index.append(std::to_string(c)).append("]");
      (void)table_.add(name_ + "." + param + index,
                       values[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) +
                              static_cast<std::size_t>(c)],
                       "element " + index + " of parameter " + param + " of block " + name_);
    }
  }
  return e;
}

Elements BlockBuilder::list_elements(std::string_view param) {
  const Param& p = required(param);
  if (p.is_text || (p.rows > 1 && p.cols > 1)) fail(p, "expected a number or a list of numbers");
  return add_elements(p.name, p.values, 1, static_cast<int>(p.values.size()), false);
}

Elements BlockBuilder::list_elements_or(std::string_view param,
                                        const std::vector<double>& fallback) {
  if (has(param)) return list_elements(param);
  return add_elements(std::string(param), fallback, 1, static_cast<int>(fallback.size()), false);
}

Elements BlockBuilder::matrix_elements(std::string_view param) {
  const Param& p = required(param);
  if (p.is_text) fail(p, "expected a matrix (a list of rows) of numbers");
  return add_elements(p.name, p.values, p.rows, p.cols, true);
}

std::string Limits::misfit(const double* p) const {
  if (lower < 0 || upper < 0 || !(p[lower] > p[upper])) return {};
  std::ostringstream out;
  out << "lower must not exceed upper: p." << lower_name << " = " << p[lower] << " > p."
      << upper_name << " = " << p[upper];
  return out.str();
}

Limits BlockBuilder::limits(bool required) {
  Limits limits;
  limits.lower = required ? scalar("lower") : optional_scalar("lower");
  limits.upper = required ? scalar("upper") : optional_scalar("upper");
  const auto name_of = [&](int index) {
    return index < 0 ? std::string() : table_.specs[static_cast<std::size_t>(index)].name;
  };
  limits.lower_name = name_of(limits.lower);
  limits.upper_name = name_of(limits.upper);
  if (std::string why = limits.misfit(table_.defaults().data()); !why.empty()) {
    fail(*spec_.find("lower"), why);
  }
  return limits;
}

std::vector<double> BlockBuilder::defaults(const Elements& e) const {
  std::vector<double> out;
  for (int i = 0; i < e.size(); ++i) out.push_back(default_of(e.first + i));
  return out;
}

std::string BlockBuilder::text_or(std::string_view param, std::string fallback) {
  const Param* p = spec_.find(param);
  if (p == nullptr) return fallback;
  if (!p->is_text) fail(*p, "expected a text");
  return p->text;
}

double BlockBuilder::default_of(int index) const {
  return table_.specs[static_cast<std::size_t>(index)].default_value;
}

void BlockBuilder::finish(const std::vector<std::string>& known) const {
  for (const Param& p : spec_.params) {
    if (std::find(known.begin(), known.end(), p.name) == known.end()) {
      throw DiagramError(p.origin, "block '" + name_ + "' (" + spec_.type + ") has no parameter '" +
                                       p.name + "'" + core::did_you_mean(p.name, known) +
                                       "; its parameters: " + core::join_or_none(known));
    }
  }
}

std::unique_ptr<Block> make_block(BlockBuilder& b, int inport_index) {
  const std::string& type = b.spec().type;
  static constexpr std::array<std::string_view, 4> kSources = {"constant", "inport", "clock",
                                                               "signal"};
  static constexpr std::array<std::string_view, 5> kMath = {"gain", "sum", "product", "mux",
                                                            "demux"};
  static constexpr std::array<std::string_view, 3> kNonlinear = {"saturation", "switch",
                                                                 "lookup_table"};
  static constexpr std::array<std::string_view, 3> kDynamic = {"integrator", "transfer_function",
                                                               "state_space"};
  const auto in = [&](const auto& group) {
    return std::find(group.begin(), group.end(), type) != group.end();
  };
  std::unique_ptr<Block> block;
  if (in(kSources)) {
    block = make_source(b, inport_index);
  } else if (in(kMath)) {
    block = make_math(b);
  } else if (in(kNonlinear)) {
    block = make_nonlinear(b);
  } else if (in(kDynamic)) {
    block = make_dynamic(b);
  } else if (type == "function") {
    block = make_function(b);
  } else if (type == "zero_order_hold") {
    block = make_zero_order_hold(b);
  } else {
    throw DiagramError(b.spec().origin, "block '" + b.name() + "' has unknown type '" + type + "'" +
                                            core::did_you_mean(type, block_types()) +
                                            "; known types: " + core::join_or_none(block_types()));
  }
  block->name = b.name();
  block->type = type;
  block->origin = b.spec().origin;
  return block;
}

}  // namespace simverify::simulation::diagram::detail

namespace simverify::simulation::diagram {

const std::vector<std::string>& block_types() {
  static const std::vector<std::string> types = {"clock",
                                                 "constant",
                                                 "demux",
                                                 "function",
                                                 "gain",
                                                 "inport",
                                                 "integrator",
                                                 "lookup_table",
                                                 "mux",
                                                 "product",
                                                 "saturation",
                                                 "signal",
                                                 "state_space",
                                                 "subsystem",
                                                 "sum",
                                                 "switch",
                                                 "transfer_function",
                                                 "zero_order_hold"};
  return types;
}

}  // namespace simverify::simulation::diagram
