#include "input_binding.hpp"

#include <algorithm>

namespace simverify::fmu::detail {

InputBinding::InputBinding(const ModelDescription& description, const NamedInputs& inputs) {
  const std::vector<std::string> names = description.names(description.inputs);
  for (const auto& [name, signal] : inputs) {
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      throw FmuError("the FMU has no input '" + name +
                     "'; its inputs: " + (known.empty() ? "none" : known));
    }
    const std::size_t variable = description.inputs[static_cast<std::size_t>(it - names.begin())];
    references_.push_back(description.variables[variable].value_reference);
    signals_.push_back(signal);
  }
  if (inputs.empty() && description.inputs.size() == 1) {
    references_.push_back(description.variables[description.inputs.front()].value_reference);
    signals_.push_back(nullptr);
  }
  last_.assign(references_.size(), std::nullopt);
}

void InputBinding::values_at(double t, std::optional<double> run_input,
                             std::vector<std::uint32_t>& references, std::vector<double>& values) {
  references.clear();
  values.clear();
  for (std::size_t k = 0; k < references_.size(); ++k) {
    std::optional<double> value;
    if (signals_[k]) {
      value = signals_[k]->at(t).value;
    } else {
      value = run_input;
    }
    if (!value || value == last_[k]) continue;
    last_[k] = value;
    references.push_back(references_[k]);
    values.push_back(*value);
  }
}

}  // namespace simverify::fmu::detail
