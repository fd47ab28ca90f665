#pragma once
// Internal: which signal drives each input of an FMU. A named signal drives the input of that
// name; an FMU with exactly one input and no named signal takes the run's u (Context::u, so
// the simulator's zero-order hold and sampling apply); other inputs keep their start values.
#include <simverify/fmu/inputs.hpp>
#include <simverify/fmu/model_description.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace simverify::fmu::detail {

class InputBinding {
 public:
  // Throws FmuError for a name that is not an input of the FMU.
  InputBinding(const ModelDescription& description, const NamedInputs& inputs);

  // The value references and values to set at time t where they changed since the last call
  // (all of them on the first call after reset()); `run_input` is the run's u(t).
  void values_at(double t, std::optional<double> run_input, std::vector<std::uint32_t>& references,
                 std::vector<double>& values);
  void reset() { last_.assign(last_.size(), std::nullopt); }
  [[nodiscard]] bool empty() const { return references_.empty(); }

 private:
  std::vector<std::uint32_t> references_;
  std::vector<simulation::InputPtr> signals_;  // nullptr: the run's u
  std::vector<std::optional<double>> last_;
};

}  // namespace simverify::fmu::detail
