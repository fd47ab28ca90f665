// The `sensitivity` component (system level): the numerical sensitivity (Def 4.24) of any
// measure of `simulate` with respect to one input - a parameter p.<name>, t0, tf or a
// component x0[i] - by central differences whose step balances truncation against the
// solver's own error (analysis/finite_difference.hpp).
#include "registration.hpp"

#include <simverify/framework/quality.hpp>
#include <simverify/simulation/analysis/finite_difference.hpp>
#include <simverify/simulation/model_registry.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Measurement;
using framework::Value;

// Conditions of this component that are not passed on to `simulate`.
constexpr std::string_view kOwnAxes[] = {"wrt", "of", "noise"};

bool is_own_axis(std::string_view name) {
  return std::find(std::begin(kOwnAxes), std::end(kOwnAxes), name) != std::end(kOwnAxes);
}

// The input being varied: an axis name and, for x0[i], the component index.
struct Input {
  std::string axis;
  std::optional<std::size_t> index;
};

Input parse_input(const std::string& wrt) {
  if (wrt.starts_with("x0[") && wrt.back() == ']') {
    return {"x0", static_cast<std::size_t>(std::stoul(wrt.substr(3, wrt.size() - 4)))};
  }
  if (wrt == "t0" || wrt == "tf" || wrt.starts_with("p.")) return {wrt, std::nullopt};
  throw std::invalid_argument("wrt must be p.<name>, t0, tf or x0[<i>], found '" + wrt + "'");
}

// The nominal value of the input: from the condition, else the model's default.
double nominal(const Condition& c, const Input& in) {
  const simulation::ModelInfo info =
      simulation::make_model(c.text("model"), c.text_or("variant", ""))->info();
  if (in.axis == "x0") {
    const auto x0 = c.has("x0")
                        ? c.at("x0").as_numbers()
                        : std::vector<double>(info.default_x0.begin(), info.default_x0.end());
    if (*in.index >= x0.size()) throw std::invalid_argument("x0 index out of range");
    return x0[*in.index];
  }
  if (c.has(in.axis)) return c.number(in.axis);
  if (in.axis == "t0") return 0.0;
  if (in.axis == "tf") return info.default_tf;
  const std::string name = in.axis.substr(2);
  for (const auto& p : info.parameters) {
    if (p.name == name) return p.default_value;
  }
  throw std::invalid_argument("model '" + info.name + "' has no parameter '" + name + "'");
}

// A one-point grid with the condition's values, the input set to `x`.
framework::Grid perturbed(const Condition& c, const Input& in, double x) {
  framework::Grid grid;
  bool placed = false;
  for (const auto& [name, value] : c.entries()) {
    if (is_own_axis(name)) continue;
    Value v = *value;
    if (name == in.axis) {
      if (in.index) {
        auto list = v.as_numbers();
        list[*in.index] = x;
        v = Value(Value::List(list.begin(), list.end()));
      } else {
        v = Value(x);
      }
      placed = true;
    }
    grid.add_group({{framework::Axis{std::string(name), {v}, {}}}});
  }
  if (!placed) {
    if (in.index) {
      const auto info = simulation::make_model(c.text("model"), c.text_or("variant", ""))->info();
      std::vector<double> x0(info.default_x0.begin(), info.default_x0.end());
      x0[*in.index] = x;
      grid.add_group({{framework::Axis{"x0", {Value(Value::List(x0.begin(), x0.end()))}, {}}}});
    } else {
      grid.add_group({{framework::Axis{in.axis, {Value(x)}, {}}}});
    }
  }
  return grid;
}

Measurement sensitivity(const Condition& c) {
  const Input in = parse_input(c.text("wrt"));
  const std::string of = c.text("of");
  const framework::Component simulate = simulate_component();
  auto measure_at = [&](double x) {
    const framework::Grid grid = perturbed(c, in, x);
    return framework::evaluate_measure(simulate.evaluate(grid.point(0)), of);
  };
  const double x = nominal(c, in);
  // The measure is only as smooth as the solver is accurate: its noise is about rtol.
  const double noise = c.number_or(
      "noise", std::max(c.number_or("rtol", 1e-3), std::numeric_limits<double>::epsilon()));
  const auto d = simulation::analysis::central_difference(measure_at, x, noise);
  const double value = measure_at(x);
  Measurement m;
  m.set("value", value);
  m.set("derivative", d.value);
  m.set("error_estimate", d.error_estimate);
  m.set("step", d.step);
  if (value != 0.0 && x != 0.0)
    m.set("normalized", simulation::analysis::normalized(d.value, x, value));
  return m;
}

}  // namespace

framework::Component sensitivity_component() {
  return extend_simulate(
      "sensitivity",
      "d(of)/d(wrt) of a simulate measure by central differences (Def 4.24); normalized = "
      "% change per 1% change",
      {std::begin(kOwnAxes), std::end(kOwnAxes)},
      {"value", "derivative", "normalized", "error_estimate", "step"}, sensitivity,
      [](std::string_view axis, const Value& v) -> std::optional<std::string> {
        if (axis == "wrt") {
          if (!v.is_string()) return "expected p.<name>, t0, tf or x0[<i>]";
          try {
            (void)parse_input(v.as_string());
          } catch (const std::exception& e) {
            return e.what();
          }
          return std::nullopt;
        }
        if (axis == "of") {
          if (!v.is_string()) return "expected a measure of simulate, e.g. final(event_times)";
          return std::nullopt;
        }
        if (!v.is_number() || !(v.as_number() > 0)) return "expected a positive number";
        return std::nullopt;
      });
}

}  // namespace simverify::components
