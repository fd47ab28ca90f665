// modelDescription.xml, FMI 2.0 (chapter 2.2: ScalarVariable elements with a Real child,
// states found through the `derivative` index of ModelStructure/Derivatives) and FMI 3.0
// (chapter 2.4: typed elements such as Float64, states found through the `derivative` value
// reference of ModelStructure/ContinuousStateDerivative), read with pugixml.
#include <simverify/fmu/model_description.hpp>

#include <pugixml.hpp>

#include <algorithm>
#include <charconv>
#include <map>

namespace simverify::fmu {
namespace {

std::string line_of(std::string_view xml, std::ptrdiff_t offset) {
  const auto end = xml.begin() + std::clamp<std::ptrdiff_t>(offset, 0, std::ssize(xml));
  return std::to_string(1 + std::count(xml.begin(), end, '\n'));
}

bool flag(const pugi::xml_node& node, const char* name, bool fallback) {
  const pugi::xml_attribute a = node.attribute(name);
  if (!a) return fallback;
  const std::string_view v = a.value();
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  throw FmuError(std::string("modelDescription.xml: <") + node.name() + " " + name + "=\"" +
                 std::string(v) + "\"> must be true or false");
}

std::optional<double> number(const pugi::xml_node& node, const char* name) {
  const pugi::xml_attribute a = node.attribute(name);
  if (!a) return std::nullopt;
  std::string_view text = a.value();
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw FmuError(std::string("modelDescription.xml: <") + node.name() + " " + name + "=\"" +
                   a.value() + "\"> is not a number");
  }
  return value;
}

std::uint32_t value_reference(const pugi::xml_node& node, const char* name = "valueReference") {
  const auto v = number(node, name);
  if (!v || *v < 0 || *v > 4294967295.0 ||
      *v != static_cast<double>(static_cast<std::uint32_t>(*v))) {
    throw FmuError(std::string("modelDescription.xml: <") + node.name() + " name=\"" +
                   node.attribute("name").value() + "\"> needs a whole " + name + " >= 0");
  }
  return static_cast<std::uint32_t>(*v);
}

Causality causality_of(const pugi::xml_node& node) {
  const std::string_view v = node.attribute("causality").as_string("local");
  if (v == "parameter") return Causality::parameter;
  if (v == "calculatedParameter") return Causality::calculated_parameter;
  if (v == "structuralParameter") return Causality::structural_parameter;
  if (v == "input") return Causality::input;
  if (v == "output") return Causality::output;
  if (v == "independent") return Causality::independent;
  if (v == "local") return Causality::local;
  throw FmuError("modelDescription.xml: variable '" + std::string(node.attribute("name").value()) +
                 "' has an unknown causality '" + std::string(v) + "'");
}

Variability variability_of(const pugi::xml_node& node, bool real) {
  const std::string_view v =
      node.attribute("variability").as_string(real ? "continuous" : "discrete");
  if (v == "constant") return Variability::constant;
  if (v == "fixed") return Variability::fixed;
  if (v == "tunable") return Variability::tunable;
  if (v == "discrete") return Variability::discrete;
  if (v == "continuous") return Variability::continuous;
  throw FmuError("modelDescription.xml: variable '" + std::string(node.attribute("name").value()) +
                 "' has an unknown variability '" + std::string(v) + "'");
}

InterfaceCapabilities capabilities_of(const pugi::xml_node& node, FmiVersion version) {
  InterfaceCapabilities c;
  c.model_identifier = node.attribute("modelIdentifier").value();
  if (c.model_identifier.empty()) {
    throw FmuError(std::string("modelDescription.xml: <") + node.name() +
                   "> has no modelIdentifier");
  }
  if (c.model_identifier.find_first_of("/\\") != std::string::npos ||
      c.model_identifier.find("..") != std::string::npos) {
    throw FmuError("modelDescription.xml: modelIdentifier '" + c.model_identifier +
                   "' is not a plain name");
  }
  if (flag(node, "needsExecutionTool", false)) {
    throw FmuError("the FMU's " + std::string(node.name()) +
                   " needs its modelling tool to run (needsExecutionTool), which simverify "
                   "cannot start");
  }
  const bool v2 = version == FmiVersion::fmi2;
  c.provides_directional_derivatives =
      flag(node, v2 ? "providesDirectionalDerivative" : "providesDirectionalDerivatives", false);
  c.needs_completed_integrator_step = v2 ? !flag(node, "completedIntegratorStepNotNeeded", false)
                                         : flag(node, "needsCompletedIntegratorStep", false);
  c.can_handle_variable_step_size = flag(node, "canHandleVariableCommunicationStepSize", false);
  c.instantiated_once_per_process = flag(node, "canBeInstantiatedOnlyOncePerProcess", false);
  return c;
}

// Variables and states of FMI 2.0: derivative attributes and ModelStructure indices are
// 1-based positions in the ScalarVariable list.
void read_variables_2(const pugi::xml_node& root, ModelDescription& d) {
  std::vector<std::optional<std::size_t>> derivative_of;
  for (const pugi::xml_node sv : root.child("ModelVariables").children("ScalarVariable")) {
    Variable v;
    v.name = sv.attribute("name").value();
    v.value_reference = value_reference(sv);
    v.description = sv.attribute("description").value();
    const pugi::xml_node real = sv.child("Real");
    v.is_real = static_cast<bool>(real);
    v.causality = causality_of(sv);
    v.variability = variability_of(sv, v.is_real);
    std::optional<std::size_t> of;
    if (real) {
      v.start = number(real, "start");
      v.unit = real.attribute("unit").value();
      if (const auto index = number(real, "derivative")) of = static_cast<std::size_t>(*index);
    }
    derivative_of.push_back(of);
    d.variables.push_back(std::move(v));
  }
  const auto position = [&](const pugi::xml_node& node) {
    const auto index = number(node, "index");
    if (!index || *index < 1 || *index > static_cast<double>(d.variables.size())) {
      throw FmuError("modelDescription.xml: ModelStructure refers to variable index " +
                     std::string(node.attribute("index").value()) + ", which does not exist");
    }
    return static_cast<std::size_t>(*index) - 1;
  };
  for (const pugi::xml_node u :
       root.child("ModelStructure").child("Derivatives").children("Unknown")) {
    const std::size_t derivative = position(u);
    const auto state = derivative_of[derivative];
    if (!state || *state < 1 || *state > d.variables.size()) {
      throw FmuError("modelDescription.xml: derivative '" + d.variables[derivative].name +
                     "' does not name its state (Real derivative=\"index\")");
    }
    d.states.push_back(*state - 1);
    d.derivatives.push_back(derivative);
  }
  const auto indicators = number(root, "numberOfEventIndicators").value_or(0.0);
  // More indicators than a model could evaluate is a corrupt file, not a model to allocate for.
  if (!(indicators >= 0.0 && indicators <= 1e6) || indicators != static_cast<int>(indicators)) {
    throw FmuError("modelDescription.xml: numberOfEventIndicators=\"" +
                   std::string(root.attribute("numberOfEventIndicators").value()) +
                   "\" is not a count of event indicators");
  }
  for (int k = 1; k <= static_cast<int>(indicators); ++k) {
    d.event_indicators.push_back("indicator_" + std::to_string(k));
  }
}

// Variables and states of FMI 3.0: typed elements; references go by value reference.
void read_variables_3(const pugi::xml_node& root, ModelDescription& d) {
  std::map<std::uint32_t, std::size_t> by_reference;
  std::vector<std::optional<std::uint32_t>> derivative_of;
  for (const pugi::xml_node node : root.child("ModelVariables").children()) {
    if (node.type() != pugi::node_element) continue;
    Variable v;
    v.name = node.attribute("name").value();
    v.value_reference = value_reference(node);
    v.description = node.attribute("description").value();
    // Arrays (Dimension children) are not scalars simverify can set or read.
    v.is_real = std::string_view(node.name()) == "Float64" && !node.child("Dimension");
    const bool float_type = std::string_view(node.name()).starts_with("Float");
    v.causality = causality_of(node);
    v.variability = variability_of(node, float_type);
    std::optional<std::uint32_t> of;
    if (v.is_real) {
      v.start = number(node, "start");
      v.unit = node.attribute("unit").value();
      if (node.attribute("derivative")) of = value_reference(node, "derivative");
    }
    by_reference.emplace(v.value_reference, d.variables.size());
    derivative_of.push_back(of);
    d.variables.push_back(std::move(v));
  }
  const auto find = [&](std::uint32_t reference, const char* what) {
    const auto it = by_reference.find(reference);
    if (it == by_reference.end()) {
      throw FmuError("modelDescription.xml: " + std::string(what) + " refers to value reference " +
                     std::to_string(reference) + ", which no variable has");
    }
    return it->second;
  };
  const pugi::xml_node structure = root.child("ModelStructure");
  for (const pugi::xml_node node : structure.children("ContinuousStateDerivative")) {
    const std::size_t derivative = find(value_reference(node), "ContinuousStateDerivative");
    const auto state = derivative_of[derivative];
    if (!state) {
      throw FmuError("modelDescription.xml: derivative '" + d.variables[derivative].name +
                     "' does not name its state (derivative=\"valueReference\")");
    }
    d.states.push_back(find(*state, "a derivative attribute"));
    d.derivatives.push_back(derivative);
  }
  for (const pugi::xml_node node : structure.children("EventIndicator")) {
    d.event_indicators.push_back(d.variables[find(value_reference(node), "EventIndicator")].name);
  }
}

}  // namespace

const char* to_string(Interface interface) {
  return interface == Interface::model_exchange ? "model_exchange" : "co_simulation";
}

const InterfaceCapabilities* ModelDescription::capabilities(Interface interface) const {
  const auto& c = interface == Interface::model_exchange ? model_exchange : co_simulation;
  return c ? &*c : nullptr;
}

std::vector<std::string> ModelDescription::names(const std::vector<std::size_t>& indices) const {
  std::vector<std::string> out;
  out.reserve(indices.size());
  for (const std::size_t i : indices) out.push_back(variables[i].name);
  return out;
}

std::vector<std::string> ModelDescription::units(const std::vector<std::size_t>& indices) const {
  std::vector<std::string> out;
  out.reserve(indices.size());
  for (const std::size_t i : indices) out.push_back(variables[i].unit);
  return out;
}

std::vector<std::uint32_t> ModelDescription::value_references(
    const std::vector<std::size_t>& indices) const {
  std::vector<std::uint32_t> out;
  out.reserve(indices.size());
  for (const std::size_t i : indices) out.push_back(variables[i].value_reference);
  return out;
}

ModelDescription parse_model_description(std::string_view xml) {
  pugi::xml_document document;
  const pugi::xml_parse_result parsed = document.load_buffer(xml.data(), xml.size());
  if (!parsed) {
    throw FmuError("modelDescription.xml line " + line_of(xml, parsed.offset) +
                   ": not well-formed XML (" + parsed.description() + ")");
  }
  const pugi::xml_node root = document.child("fmiModelDescription");
  if (!root) throw FmuError("modelDescription.xml has no <fmiModelDescription> element");
  ModelDescription d;
  d.fmi_version = root.attribute("fmiVersion").value();
  if (d.fmi_version == "2.0") {
    d.version = FmiVersion::fmi2;
    d.token = root.attribute("guid").value();
  } else if (d.fmi_version.starts_with("3.")) {
    d.version = FmiVersion::fmi3;
    d.token = root.attribute("instantiationToken").value();
  } else {
    throw FmuError("FMI version '" + d.fmi_version +
                   "' is not supported; simverify reads FMI 2.0 and 3.0");
  }
  d.model_name = root.attribute("modelName").value();
  d.description = root.attribute("description").value();
  if (const pugi::xml_node me = root.child("ModelExchange")) {
    d.model_exchange = capabilities_of(me, d.version);
  }
  if (const pugi::xml_node cs = root.child("CoSimulation")) {
    d.co_simulation = capabilities_of(cs, d.version);
  }
  if (!d.model_exchange && !d.co_simulation) {
    throw FmuError("modelDescription.xml declares neither <ModelExchange> nor <CoSimulation>");
  }
  if (const pugi::xml_node experiment = root.child("DefaultExperiment")) {
    d.default_experiment = {number(experiment, "startTime"), number(experiment, "stopTime"),
                            number(experiment, "tolerance"), number(experiment, "stepSize")};
  }
  if (d.version == FmiVersion::fmi2) {
    read_variables_2(root, d);
  } else {
    read_variables_3(root, d);
  }
  for (std::size_t i = 0; i < d.variables.size(); ++i) {
    const Variable& v = d.variables[i];
    if (!v.is_real) continue;
    if (v.causality == Causality::parameter &&
        (v.variability == Variability::fixed || v.variability == Variability::tunable)) {
      d.parameters.push_back(i);
    } else if (v.causality == Causality::input) {
      d.inputs.push_back(i);
    } else if (v.causality == Causality::output) {
      d.outputs.push_back(i);
    }
  }
  return d;
}

}  // namespace simverify::fmu
