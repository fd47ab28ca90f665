#include "parameter_overrides.hpp"

#include <simverify/core/text.hpp>
#include <simverify/framework/diagnostics.hpp>

#include <algorithm>
#include <stdexcept>

namespace simverify::components {
namespace {

// The elements `name[...]` of a list or matrix parameter, in the model's (row-major) order.
std::vector<std::string> elements_of(const std::string& name, const simulation::ModelInfo& info) {
  std::vector<std::string> out;
  const std::string prefix = name + "[";
  for (const auto& p : info.parameters) {
    if (p.name.starts_with(prefix)) out.push_back(p.name);
  }
  return out;
}

// rows x columns of a list or matrix parameter from its last element's name.
std::pair<std::size_t, std::size_t> shape_of(const std::string& name, const std::string& last) {
  const std::string index = last.substr(name.size());  // "[i]" or "[i][j]"
  const auto close = index.find(']');
  const std::size_t first = std::stoul(index.substr(1, close - 1)) + 1;
  if (close + 1 == index.size()) return {1, first};
  return {first, std::stoul(index.substr(close + 2, index.size() - close - 3)) + 1};
}

std::string size_text(std::size_t rows, std::size_t cols, bool matrix) {
  if (!matrix) return "a list of " + std::to_string(cols);
  return "a " + std::to_string(rows) + "x" + std::to_string(cols) + " matrix";
}

[[noreturn]] void unknown(const std::string& name, const simulation::ModelInfo& info) {
  std::vector<std::string> names;
  for (const auto& p : info.parameters) names.push_back(p.name);
  // A list or matrix parameter may be set whole (p.lag.den), so its name is a candidate too:
  // p.lag.dem suggests lag.den, not one of its elements.
  std::vector<std::string> candidates = names;
  for (const auto& n : names) {
    const auto bracket = n.find('[');
    if (bracket == std::string::npos) continue;
    std::string whole = n.substr(0, bracket);
    if (std::find(candidates.begin(), candidates.end(), whole) == candidates.end()) {
      candidates.push_back(std::move(whole));
    }
  }
  throw std::invalid_argument("model '" + info.name + "' has no parameter '" + name + "'" +
                              framework::did_you_mean(name, candidates) +
                              "; its parameters: " + core::join_or_none(names));
}

}  // namespace

std::vector<std::pair<std::string, double>> parameter_overrides(const std::string& name,
                                                                const framework::Value& value,
                                                                const simulation::ModelInfo& info) {
  const bool scalar =
      std::any_of(info.parameters.begin(), info.parameters.end(),
                  [&](const simulation::ParameterSpec& p) { return p.name == name; });
  if (scalar) {
    if (!value.is_number()) {
      throw std::invalid_argument("parameter '" + name + "' is a number, given " +
                                  value.type_name());
    }
    return {{name, value.as_number()}};
  }
  const std::vector<std::string> elements = elements_of(name, info);
  if (elements.empty()) unknown(name, info);
  const auto [rows, cols] = shape_of(name, elements.back());
  const bool matrix = elements.back().find("][") != std::string::npos;
  std::vector<double> values;
  std::size_t given_rows = 1;
  if (value.is_list() && !value.as_list().empty() && value.as_list().front().is_list()) {
    given_rows = value.as_list().size();
    for (const auto& row : value.as_list()) {
      const std::vector<double> numbers = row.as_numbers();
      if (numbers.size() != value.as_list().front().as_list().size()) {
        throw std::invalid_argument("the rows given for parameter '" + name + "' differ in length");
      }
      values.insert(values.end(), numbers.begin(), numbers.end());
    }
  } else {
    values = value.as_numbers();
  }
  const std::size_t given_cols = given_rows == 0 ? 0 : values.size() / given_rows;
  const bool fits =
      matrix ? given_rows == rows && given_cols == cols : given_rows == 1 && values.size() == cols;
  if (!fits) {
    const std::string form = matrix ? "its " + std::to_string(rows) + " rows" : "a list";
    throw std::invalid_argument(
        "parameter '" + name + "' of model '" + info.name + "' is " +
        size_text(rows, cols, matrix) + " (" + core::join_or_none(elements) + "), given " +
        (value.is_number()          ? std::string("a number")
         : given_rows > 1 || matrix ? size_text(given_rows, given_cols, true)
                                    : size_text(1, values.size(), false)) +
        "; give one element as p." + elements.front() + ", or the whole as " + form +
        " (in a grid, one value of an axis: p." + name + ": [" + (matrix ? "[[...]]" : "[...]") +
        "])");
  }
  std::vector<std::pair<std::string, double>> out;
  for (std::size_t i = 0; i < elements.size(); ++i) out.emplace_back(elements[i], values[i]);
  return out;
}

}  // namespace simverify::components
