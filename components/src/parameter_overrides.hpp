#pragma once
// Internal: the model parameters one condition `p.<name>: value` sets. A diagram's list and
// matrix block parameters are model parameters element by element (`<block>.<param>[i]`,
// `<block>.<param>[i][j]`, DIAGRAM-FORMAT.md "every numeric block parameter"); a condition
// may set one element, or the whole list or matrix at once:
//   p.lag.den[0]: [0.2, 0.4]          # an axis of two values of one element
//   p.lag.den: [[0.4, 1.0]]           # one value: the whole list (a nested list, as x0)
//   p.ss.A: [[[0, 1], [-4, -0.4]]]    # one value: the whole matrix as its rows
#include <simverify/framework/value.hpp>
#include <simverify/simulation/model.hpp>

#include <string>
#include <utility>
#include <vector>

namespace simverify::components {

// (name, value) per model parameter set: a number sets `name` (or the only element of a
// one-element list); a list of numbers sets the elements `name[i]` of a list parameter in
// order; a list of rows sets `name[i][j]` of a matrix parameter. Throws std::invalid_argument
// naming the parameter and the sizes when the model has no such parameter or the sizes differ.
[[nodiscard]] std::vector<std::pair<std::string, double>> parameter_overrides(
    const std::string& name, const framework::Value& value, const simulation::ModelInfo& info);

}  // namespace simverify::components
