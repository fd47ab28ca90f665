#pragma once
// What an FMU's modelDescription.xml says, for FMI 2.0 and FMI 3.0 alike (FMI 2.0 chapter 2.2,
// FMI 3.0 chapter 2.4): the interfaces it implements, its variables and which of them are
// parameters, inputs, outputs and continuous states, its event indicators and its default
// experiment. simverify sets and reads Real (2.0) / Float64 (3.0) variables only.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::fmu {

// Everything wrong with an FMU file, its description or a call into it.
class FmuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class FmiVersion { fmi2, fmi3 };
enum class Interface { model_exchange, co_simulation };
[[nodiscard]] const char* to_string(Interface interface);  // "model_exchange", "co_simulation"

enum class Causality {
  parameter,
  calculated_parameter,
  structural_parameter,
  input,
  output,
  local,
  independent
};
enum class Variability { constant, fixed, tunable, discrete, continuous };

struct Variable {
  std::string name;
  std::uint32_t value_reference = 0;
  Causality causality = Causality::local;
  Variability variability = Variability::continuous;
  bool is_real = false;  // Real (2.0) or a scalar Float64 (3.0)
  std::optional<double> start;
  std::string description;
  std::string unit;
};

struct InterfaceCapabilities {
  std::string model_identifier;  // the binary's file name without extension
  bool provides_directional_derivatives = false;
  bool needs_completed_integrator_step = false;  // model exchange
  bool can_handle_variable_step_size = false;    // co-simulation
  bool instantiated_once_per_process = false;    // canBeInstantiatedOnlyOncePerProcess
};

struct DefaultExperiment {
  std::optional<double> start_time;
  std::optional<double> stop_time;
  std::optional<double> tolerance;
  std::optional<double> step_size;
};

struct ModelDescription {
  FmiVersion version = FmiVersion::fmi2;
  std::string fmi_version;  // as written, e.g. "2.0", "3.0"
  std::string model_name;
  std::string description;
  std::string token;  // FMI 2.0 guid, FMI 3.0 instantiationToken
  std::optional<InterfaceCapabilities> model_exchange;
  std::optional<InterfaceCapabilities> co_simulation;
  std::vector<Variable> variables;
  // Indices into `variables`: the continuous states in the FMU's order and the derivative of
  // each (same length), and the Real parameters, inputs and outputs in file order.
  std::vector<std::size_t> states;
  std::vector<std::size_t> derivatives;
  std::vector<std::size_t> parameters;
  std::vector<std::size_t> inputs;
  std::vector<std::size_t> outputs;
  // One name per event indicator: the indicator variable's name (3.0) or "indicator_<k>".
  std::vector<std::string> event_indicators;
  DefaultExperiment default_experiment;

  [[nodiscard]] const InterfaceCapabilities* capabilities(Interface interface) const;
  [[nodiscard]] std::vector<std::string> names(const std::vector<std::size_t>& indices) const;
  // The variables' `unit` attributes ("" where none is declared).
  [[nodiscard]] std::vector<std::string> units(const std::vector<std::size_t>& indices) const;
  [[nodiscard]] std::vector<std::uint32_t> value_references(
      const std::vector<std::size_t>& indices) const;
};

// Parses modelDescription.xml of FMI 2.0 or 3.0; throws FmuError saying what is missing or
// malformed (an XML error names its line).
[[nodiscard]] ModelDescription parse_model_description(std::string_view xml);

}  // namespace simverify::fmu
