// modelDescription.xml, FMI 2.0 (chapter 2.2: ScalarVariable elements with a Real child,
// states found through the `derivative` index of ModelStructure/Derivatives) and FMI 3.0
// (chapter 2.4: typed elements such as Float64, states found through the `derivative` value
// reference of ModelStructure/ContinuousStateDerivative), read with pugixml.
#include <simverify/fmu/model_description.hpp>

#include <pugixml.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>

namespace simverify::fmu {
namespace {

std::string line_of(std::string_view xml, std::ptrdiff_t offset) {
  const auto end = xml.begin() + std::clamp<std::ptrdiff_t>(offset, 0, std::ssize(xml));
  return std::to_string(1 + std::count(xml.begin(), end, '\n'));
}

// "modelDescription.xml line 12: <Unknown index=\"nan\">": where an attribute's element is
// (pugixml keeps each node's offset in the buffer it parsed) and what it says.
std::string where(std::string_view xml, const pugi::xml_node& node, const char* name) {
  return "modelDescription.xml line " + line_of(xml, node.offset_debug()) + ": <" + node.name() +
         " " + name + "=\"" + node.attribute(name).value() + "\">";
}

bool flag(std::string_view xml, const pugi::xml_node& node, const char* name, bool fallback) {
  const pugi::xml_attribute a = node.attribute(name);
  if (!a) return fallback;
  const std::string_view v = a.value();
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  throw FmuError(where(xml, node, name) + " must be true or false");
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::optional<double> number(std::string_view xml, const pugi::xml_node& node, const char* name) {
  const pugi::xml_attribute a = node.attribute(name);
  if (!a) return std::nullopt;
  const std::string_view text = trimmed(a.value());
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw FmuError(where(xml, node, name) + " is not a number");
  }
  return value;
}

// A variable's start value: a NaN would poison every run (a "step size underflow" at t0);
// xs:double's INF stays a value.
std::optional<double> start_value(std::string_view xml, const pugi::xml_node& node) {
  const auto value = number(xml, node, "start");
  if (value && std::isnan(*value)) {
    throw FmuError(where(xml, node, "start") + " is NaN, not a number");
  }
  return value;
}

// Elements the standard allows once (a second <ModelExchange> would silently be ignored) and
// variable names, which identify variables (p.<name>, y.<name>): each at most once, the
// second reported at its line with the first's.
void check_unique(std::string_view xml, const pugi::xml_node& root) {
  for (const char* element :
       {"ModelExchange", "CoSimulation", "ModelVariables", "DefaultExperiment", "ModelStructure"}) {
    const pugi::xml_node first = root.child(element);
    if (!first) continue;
    if (const pugi::xml_node second = first.next_sibling(element)) {
      throw FmuError("modelDescription.xml line " + line_of(xml, second.offset_debug()) +
                     ": a second <" + element + "> (the first is at line " +
                     line_of(xml, first.offset_debug()) + "; the standard allows one)");
    }
  }
  std::unordered_map<std::string_view, std::ptrdiff_t> seen;
  for (const pugi::xml_node node : root.child("ModelVariables").children()) {
    if (node.type() != pugi::node_element || !node.attribute("name")) continue;
    const auto [it, fresh] = seen.emplace(node.attribute("name").value(), node.offset_debug());
    if (!fresh) {
      throw FmuError("modelDescription.xml line " + line_of(xml, node.offset_debug()) +
                     ": variable '" + node.attribute("name").value() +
                     "' is declared twice (first at line " + line_of(xml, it->second) + ")");
    }
  }
}

// The one reader of attributes that count or point (value references, variable indices,
// derivative="...", numberOfEventIndicators): a whole number written as digits (xs:unsignedInt,
// an optional '+'), in [low, high]. "nan", "1.5", "-1", "1e3" are refused, not truncated.
std::optional<std::uint64_t> whole(std::string_view xml, const pugi::xml_node& node,
                                   const char* name, std::uint64_t low, std::uint64_t high,
                                   std::string_view expected) {
  const pugi::xml_attribute a = node.attribute(name);
  if (!a) return std::nullopt;
  std::string_view text = trimmed(a.value());
  if (text.starts_with('+')) text.remove_prefix(1);
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < low ||
      value > high) {
    throw FmuError(where(xml, node, name) + " is not " + std::string(expected) +
                   ": expected a whole number from " + std::to_string(low) + " to " +
                   std::to_string(high));
  }
  return value;
}

constexpr std::uint64_t kMaxValueReference =
    4294967295ULL;  // fmi2ValueReference, fmi3ValueReference

std::uint32_t value_reference(std::string_view xml, const pugi::xml_node& node,
                              const char* name = "valueReference") {
  const auto v = whole(xml, node, name, 0, kMaxValueReference, "a value reference");
  if (!v) {
    throw FmuError("modelDescription.xml line " + line_of(xml, node.offset_debug()) + ": <" +
                   node.name() + " name=\"" + node.attribute("name").value() + "\"> has no " +
                   name + " (expected a whole number from 0 to 4294967295)");
  }
  return static_cast<std::uint32_t>(*v);
}

// "modelDescription.xml line 7: variable 'x'": the variable an enumerated attribute belongs to.
std::string variable_at(std::string_view xml, const pugi::xml_node& node) {
  return "modelDescription.xml line " + line_of(xml, node.offset_debug()) + ": variable '" +
         node.attribute("name").value() + "'";
}

Causality causality_of(std::string_view xml, const pugi::xml_node& node) {
  const std::string_view v = node.attribute("causality").as_string("local");
  if (v == "parameter") return Causality::parameter;
  if (v == "calculatedParameter") return Causality::calculated_parameter;
  if (v == "structuralParameter") return Causality::structural_parameter;
  if (v == "input") return Causality::input;
  if (v == "output") return Causality::output;
  if (v == "independent") return Causality::independent;
  if (v == "local") return Causality::local;
  throw FmuError(variable_at(xml, node) + " has an unknown causality '" + std::string(v) + "'");
}

Variability variability_of(std::string_view xml, const pugi::xml_node& node, bool real) {
  const std::string_view v =
      node.attribute("variability").as_string(real ? "continuous" : "discrete");
  if (v == "constant") return Variability::constant;
  if (v == "fixed") return Variability::fixed;
  if (v == "tunable") return Variability::tunable;
  if (v == "discrete") return Variability::discrete;
  if (v == "continuous") return Variability::continuous;
  throw FmuError(variable_at(xml, node) + " has an unknown variability '" + std::string(v) + "'");
}

InterfaceCapabilities capabilities_of(std::string_view xml, const pugi::xml_node& node,
                                      FmiVersion version) {
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
  if (flag(xml, node, "needsExecutionTool", false)) {
    throw FmuError("the FMU's " + std::string(node.name()) +
                   " needs its modelling tool to run (needsExecutionTool), which simverify "
                   "cannot start");
  }
  const bool v2 = version == FmiVersion::fmi2;
  c.provides_directional_derivatives = flag(
      xml, node, v2 ? "providesDirectionalDerivative" : "providesDirectionalDerivatives", false);
  c.needs_completed_integrator_step =
      v2 ? !flag(xml, node, "completedIntegratorStepNotNeeded", false)
         : flag(xml, node, "needsCompletedIntegratorStep", false);
  c.can_handle_variable_step_size =
      flag(xml, node, "canHandleVariableCommunicationStepSize", false);
  c.instantiated_once_per_process = flag(xml, node, "canBeInstantiatedOnlyOncePerProcess", false);
  return c;
}

// Variables and states of FMI 2.0: derivative attributes and ModelStructure indices are
// 1-based positions in the ScalarVariable list.
void read_variables_2(std::string_view xml, const pugi::xml_node& root, ModelDescription& d) {
  // The Real element and its derivative="..." (checked against the count once it is known).
  std::vector<std::pair<pugi::xml_node, std::optional<std::uint64_t>>> derivative_of;
  for (const pugi::xml_node sv : root.child("ModelVariables").children("ScalarVariable")) {
    Variable v;
    v.name = sv.attribute("name").value();
    v.value_reference = value_reference(xml, sv);
    v.description = sv.attribute("description").value();
    const pugi::xml_node real = sv.child("Real");
    v.is_real = static_cast<bool>(real);
    v.causality = causality_of(xml, sv);
    v.variability = variability_of(xml, sv, v.is_real);
    std::optional<std::uint64_t> of;
    if (real) {
      v.start = start_value(xml, real);
      v.unit = real.attribute("unit").value();
      of = whole(xml, real, "derivative", 1, kMaxValueReference, "a variable index");
    }
    derivative_of.emplace_back(real, of);
    d.variables.push_back(std::move(v));
  }
  const std::uint64_t count = d.variables.size();
  const std::string positions =
      "a variable index (the position of a ScalarVariable, 1 to " + std::to_string(count) + ")";
  for (const auto& [real, of] : derivative_of) {
    if (of) (void)whole(xml, real, "derivative", 1, count, positions);
  }
  const auto position = [&](const pugi::xml_node& node) -> std::size_t {
    const auto index = whole(xml, node, "index", 1, count, positions);
    if (!index) {
      throw FmuError("modelDescription.xml line " + line_of(xml, node.offset_debug()) + ": <" +
                     node.name() + "> has no index (expected " + positions + ")");
    }
    return static_cast<std::size_t>(*index - 1);
  };
  const pugi::xml_node structure = root.child("ModelStructure");
  for (const pugi::xml_node u : structure.child("Derivatives").children("Unknown")) {
    const std::size_t derivative = position(u);
    const std::optional<std::uint64_t>& state = derivative_of[derivative].second;
    if (!state) {
      throw FmuError("modelDescription.xml line " + line_of(xml, u.offset_debug()) +
                     ": derivative '" + d.variables[derivative].name +
                     "' does not name its state (Real derivative=\"index\")");
    }
    d.states.push_back(static_cast<std::size_t>(*state - 1));
    d.derivatives.push_back(derivative);
  }
  // Not used, but a position that is not one would be read by any other importer.
  for (const char* list : {"Outputs", "InitialUnknowns"}) {
    for (const pugi::xml_node u : structure.child(list).children("Unknown")) (void)position(u);
  }
  // More indicators than a model could evaluate is a corrupt file, not a model to allocate for.
  const auto indicators =
      whole(xml, root, "numberOfEventIndicators", 0, 1000000, "a count of event indicators");
  for (std::uint64_t k = 1; k <= indicators.value_or(0); ++k) {
    d.event_indicators.push_back("indicator_" + std::to_string(k));
  }
}

// Variables and states of FMI 3.0: typed elements; references go by value reference.
void read_variables_3(std::string_view xml, const pugi::xml_node& root, ModelDescription& d) {
  std::map<std::uint32_t, std::size_t> by_reference;
  std::vector<std::optional<std::uint32_t>> derivative_of;
  for (const pugi::xml_node node : root.child("ModelVariables").children()) {
    if (node.type() != pugi::node_element) continue;
    Variable v;
    v.name = node.attribute("name").value();
    v.value_reference = value_reference(xml, node);
    v.description = node.attribute("description").value();
    // Arrays (Dimension children) are not scalars simverify can set or read.
    v.is_real = std::string_view(node.name()) == "Float64" && !node.child("Dimension");
    const bool float_type = std::string_view(node.name()).starts_with("Float");
    v.causality = causality_of(xml, node);
    v.variability = variability_of(xml, node, float_type);
    std::optional<std::uint32_t> of;
    if (v.is_real) {
      v.start = start_value(xml, node);
      v.unit = node.attribute("unit").value();
      if (node.attribute("derivative")) of = value_reference(xml, node, "derivative");
    }
    by_reference.emplace(v.value_reference, d.variables.size());
    derivative_of.push_back(of);
    d.variables.push_back(std::move(v));
  }
  const auto find = [&](std::uint32_t reference, const pugi::xml_node& node, const char* what) {
    const auto it = by_reference.find(reference);
    if (it == by_reference.end()) {
      throw FmuError("modelDescription.xml line " + line_of(xml, node.offset_debug()) + ": " +
                     what + " refers to value reference " + std::to_string(reference) +
                     ", which no variable has");
    }
    return it->second;
  };
  const pugi::xml_node structure = root.child("ModelStructure");
  for (const pugi::xml_node node : structure.children("ContinuousStateDerivative")) {
    const std::size_t derivative =
        find(value_reference(xml, node), node, "ContinuousStateDerivative");
    const auto state = derivative_of[derivative];
    if (!state) {
      throw FmuError("modelDescription.xml line " + line_of(xml, node.offset_debug()) +
                     ": derivative '" + d.variables[derivative].name +
                     "' does not name its state (derivative=\"valueReference\")");
    }
    d.states.push_back(find(*state, node, "the derivative attribute of its variable"));
    d.derivatives.push_back(derivative);
  }
  for (const pugi::xml_node node : structure.children("EventIndicator")) {
    d.event_indicators.push_back(
        d.variables[find(value_reference(xml, node), node, "EventIndicator")].name);
  }
  for (const char* element : {"Output", "InitialUnknown"}) {
    for (const pugi::xml_node node : structure.children(element)) {
      (void)find(value_reference(xml, node), node, element);
    }
  }
}

// DefaultExperiment: finite times, and a tolerance and step size > 0 (a run with any other
// would fail at every point, or never end).
DefaultExperiment default_experiment_of(std::string_view xml, const pugi::xml_node& node) {
  DefaultExperiment e{number(xml, node, "startTime"), number(xml, node, "stopTime"),
                      number(xml, node, "tolerance"), number(xml, node, "stepSize")};
  for (const auto& [name, value] :
       {std::pair{"startTime", e.start_time}, std::pair{"stopTime", e.stop_time}}) {
    if (value && !std::isfinite(*value)) {
      throw FmuError(where(xml, node, name) + " is not a time: expected a finite number");
    }
  }
  for (const auto& [name, value] :
       {std::pair{"tolerance", e.tolerance}, std::pair{"stepSize", e.step_size}}) {
    if (value && !(std::isfinite(*value) && *value > 0.0)) {
      throw FmuError(where(xml, node, name) + " must be a finite number > 0");
    }
  }
  if (e.start_time && e.stop_time && !(*e.stop_time > *e.start_time)) {
    throw FmuError(where(xml, node, "stopTime") + " must be greater than startTime (" +
                   node.attribute("startTime").value() + ")");
  }
  return e;
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
  check_unique(xml, root);
  d.model_name = root.attribute("modelName").value();
  d.description = root.attribute("description").value();
  if (const pugi::xml_node me = root.child("ModelExchange")) {
    d.model_exchange = capabilities_of(xml, me, d.version);
  }
  if (const pugi::xml_node cs = root.child("CoSimulation")) {
    d.co_simulation = capabilities_of(xml, cs, d.version);
  }
  if (!d.model_exchange && !d.co_simulation) {
    throw FmuError("modelDescription.xml declares neither <ModelExchange> nor <CoSimulation>");
  }
  if (const pugi::xml_node experiment = root.child("DefaultExperiment")) {
    d.default_experiment = default_experiment_of(xml, experiment);
  }
  if (d.version == FmiVersion::fmi2) {
    read_variables_2(xml, root, d);
  } else {
    read_variables_3(xml, root, d);
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
