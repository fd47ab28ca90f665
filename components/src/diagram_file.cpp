// The YAML reader of block-diagram files (DIAGRAM-FORMAT.md). It checks the file's shape and
// reports where each piece was written; compile() (simulation layer) checks the rest (ports,
// parameters, loops) and points back into the file through those origins.
#include <simverify/components/diagram_file.hpp>

#include "input_conditions.hpp"

#include <simverify/core/text.hpp>
#include <simverify/framework/diagnostics.hpp>
#include <simverify/framework/value.hpp>
#include <simverify/framework/yaml_file.hpp>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>

namespace simverify::components {
namespace {

namespace fs = std::filesystem;
using simulation::diagram::BlockSpec;
using simulation::diagram::DiagramError;
using simulation::diagram::DiagramSpec;
using simulation::diagram::LoopPolicy;
using simulation::diagram::Origin;
using simulation::diagram::Param;
using simulation::diagram::PortRef;

const std::vector<std::string> kDiagramKeys = {"description",  "parameters", "blocks",
                                               "connections",  "outputs",    "algebraic_loops",
                                               "second_order", "units"};
const std::vector<std::string> kLoopKeys = {"solve", "tol", "max_iter", "relaxation"};

// A diagram file's text as its one document, checked as requirement files are (invalid
// UTF-8, a repeated key at any depth, a second document); the first problem as a DiagramError.
YAML::Node document_of(const std::string& text, const std::string& file) {
  framework::Diagnostics errors;
  if (auto document = framework::parse_yaml_text(text, file, errors)) return *document;
  const framework::SourceLocation& at = errors.front().location;
  throw DiagramError({at.file, at.line, at.column}, errors.front().message);
}

// A diagram file's text, read as requirement files are: a regular file only (a FIFO or a
// device would block or never end), of a size a hand-written file has.
std::string text_of_file(const fs::path& file, std::string_view what) {
  framework::Diagnostics errors;
  if (auto text = framework::read_yaml_file_text(file, what, errors)) return std::move(*text);
  const framework::SourceLocation& at = errors.front().location;
  throw DiagramError({at.file, at.line, at.column}, errors.front().message);
}

bool is_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  });
}

// The subsystem files one read_diagram has parsed, by canonical path: a file included many
// times (at any depth) is parsed once and its spec shared, so reading stays linear in the
// number of distinct files however often they include each other (compile() bounds the
// flattened size). Sharing is sound for the cycle check too: a file parsed without error
// includes nothing that includes it.
using ParsedFiles = std::map<fs::path, std::shared_ptr<const DiagramSpec>>;

class Reader {
 public:
  Reader(std::string file, std::vector<fs::path> including,
         std::shared_ptr<ParsedFiles> parsed = std::make_shared<ParsedFiles>())
      : file_(std::move(file)), including_(std::move(including)), parsed_(std::move(parsed)) {}

  DiagramSpec parse(const std::string& text) {
    const YAML::Node root = document_of(text, file_);
    DiagramSpec spec;
    spec.name = fs::path(file_).stem().string();
    spec.origin = {file_, 1, 1};
    if (!root.IsMap() || !root["diagram"]) {
      throw DiagramError(root.IsDefined() && !root.IsNull() ? where(root) : spec.origin,
                         "expected a mapping with a `diagram:` at the top of the file");
    }
    for (const auto& entry : root) {
      if (entry.first.Scalar() != "diagram") {
        fail(entry.first,
             "unknown top-level key '" + entry.first.Scalar() + "'; expected 'diagram'");
      }
    }
    const YAML::Node d = root["diagram"];
    if (!d.IsMap())
      fail(d, "expected `diagram:` to be a mapping (blocks, connections, outputs, ...)");
    for (const auto& entry : d) {
      const std::string key = entry.first.Scalar();
      if (std::find(kDiagramKeys.begin(), kDiagramKeys.end(), key) == kDiagramKeys.end()) {
        fail(entry.first, "unknown key '" + key + "' of a diagram" +
                              framework::did_you_mean(key, kDiagramKeys) +
                              "; known: " + core::join(kDiagramKeys));
      }
    }
    if (const YAML::Node s = d["description"]) spec.description = text_of(s, "description");
    if (const YAML::Node p = d["parameters"]) read_parameters(p, spec);
    const YAML::Node blocks = d["blocks"];
    if (!blocks || !blocks.IsMap() || blocks.size() == 0) {
      fail(blocks ? blocks : d, "expected `blocks:` to be a mapping from block name to block");
    }
    for (const auto& entry : blocks) spec.blocks.push_back(read_block(entry.first, entry.second));
    if (const YAML::Node c = d["connections"]) read_connections(c, spec);
    if (const YAML::Node o = d["outputs"]) read_outputs(o, spec);
    if (const YAML::Node l = d["algebraic_loops"]) read_loops(l, spec);
    if (const YAML::Node s = d["second_order"]) read_second_order(s, spec);
    if (const YAML::Node u = d["units"]) read_units(u, spec);
    return spec;
  }

 private:
  [[nodiscard]] Origin where(const YAML::Mark& mark) const {
    return {file_, mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0};
  }
  [[nodiscard]] Origin where(const YAML::Node& node) const { return where(node.Mark()); }
  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const {
    throw DiagramError(where(at), message);
  }

  // input_from's error as a DiagramError at the place it names in this file.
  [[nodiscard]] DiagramError relocated(const InputError& e, const Origin& fallback) const {
    if (e.where().line > 0 && e.where().file == file_) {
      return {{file_, e.where().line, e.where().column}, e.message()};
    }
    return {fallback, e.what()};
  }

  std::string text_of(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar()) fail(node, "expected " + what + " to be a text");
    return node.Scalar();
  }

  // A plain scalar that reads as a number is one; quoted scalars stay texts. One written as a
  // number that no double holds (1e309) is an error at its place, not a text.
  std::optional<double> number_of(const YAML::Node& node) const {
    if (!node.IsScalar() || framework::is_text_scalar(node)) return std::nullopt;
    double value = 0.0;
    if (YAML::convert<double>::decode(node, value)) return value;
    if (auto problem = framework::number_out_of_range(node.Scalar())) fail(node, *problem);
    return std::nullopt;
  }

  // A NaN is refused: as a limit or a gain it would silently mean "none" or poison the run.
  double number(const YAML::Node& node, const std::string& what) const {
    const auto value = number_of(node);
    if (!value) fail(node, "expected " + what + " to be a number");
    if (std::isnan(*value)) fail(node, "expected " + what + " to be a number, found .nan");
    return *value;
  }

  void read_parameters(const YAML::Node& node, DiagramSpec& spec) const {
    if (!node.IsMap()) fail(node, "expected `parameters:` to be a mapping from name to number");
    for (const auto& entry : node) {
      const std::string name = entry.first.Scalar();
      if (!is_name(name))
        fail(entry.first, "parameter name '" + name + "' must be letters, digits, _");
      spec.parameters.push_back(
          {name, number(entry.second, "parameter '" + name + "'"), where(entry.first)});
    }
  }

  Param read_param(const std::string& name, const YAML::Node& node) const {
    Param p;
    p.name = name;
    p.origin = where(node);
    if (const auto value = number_of(node)) {
      p.values = {number(node, "parameter '" + name + "'")};
      p.rows = p.cols = 1;
    } else if (node.IsScalar()) {
      p.is_text = true;
      p.text = node.Scalar();
      // A quoted expression starts one column after its quote.
      if (node.Tag() == "!") ++p.origin.column;
    } else if (node.IsSequence()) {
      const bool matrix = node.size() > 0 && node[0].IsSequence();
      p.rows = matrix ? static_cast<int>(node.size()) : 1;
      p.cols = matrix ? static_cast<int>(node[0].size()) : static_cast<int>(node.size());
      for (const auto& item : node) {
        if (matrix) {
          if (!item.IsSequence() || static_cast<int>(item.size()) != p.cols) {
            fail(item,
                 "every row of matrix '" + name + "' needs " + std::to_string(p.cols) + " numbers");
          }
          for (const auto& x : item) p.values.push_back(number(x, "an entry of '" + name + "'"));
        } else {
          p.values.push_back(number(item, "an entry of '" + name + "'"));
        }
      }
      if (p.values.empty()) fail(node, "parameter '" + name + "' is an empty list");
    } else {
      fail(node, "expected parameter '" + name +
                     "' to be a number, a list of numbers, a matrix "
                     "(list of rows) or a text");
    }
    return p;
  }

  // A YAML value as a framework Value (for the input signals the requirement format knows).
  framework::Value to_value(const YAML::Node& node) const {
    framework::Value v;
    if (const auto value = number_of(node)) {
      v = framework::Value(*value);
    } else if (node.IsScalar()) {
      v = !framework::is_text_scalar(node) && (node.Scalar() == "true" || node.Scalar() == "false")
              ? framework::Value(node.Scalar() == "true")
              : framework::Value(node.Scalar());
    } else if (node.IsSequence()) {
      framework::Value::List list;
      for (const auto& item : node) list.push_back(to_value(item));
      v = framework::Value(std::move(list));
    } else if (node.IsMap()) {
      framework::Value::Map map;
      for (const auto& entry : node) {
        framework::Value item = to_value(entry.second);
        const Origin key = where(entry.first);
        item.key_line = key.line;
        item.key_column = key.column;
        map.emplace_back(entry.first.Scalar(), std::move(item));
      }
      v = framework::Value(std::move(map));
    }
    const Origin at = where(node);
    v.location = {at.file, at.line, at.column};
    return v;
  }

  BlockSpec read_block(const YAML::Node& key, const YAML::Node& node) const {
    BlockSpec b;
    b.name = key.Scalar();
    b.origin = where(key);
    if (!is_name(b.name)) fail(key, "block name '" + b.name + "' must be letters, digits, _");
    if (!node.IsMap() || !node["type"]) {
      fail(node, "expected block '" + b.name +
                     "' to be a mapping with a `type:` (e.g. {type: "
                     "gain, k: 2})");
    }
    b.type = text_of(node["type"], "type");
    const auto& types = simulation::diagram::block_types();
    if (std::find(types.begin(), types.end(), b.type) == types.end()) {
      fail(node["type"], "unknown block type '" + b.type + "'" +
                             framework::did_you_mean(b.type, types) +
                             "; known: " + core::join(types));
    }
    if (b.type == "signal") {
      framework::Value::Map signal;
      for (const auto& entry : node) {
        if (entry.first.Scalar() == "type") continue;
        framework::Value item = to_value(entry.second);
        const Origin at = where(entry.first);
        item.key_line = at.line;
        item.key_column = at.column;
        signal.emplace_back(entry.first.Scalar(), std::move(item));
      }
      framework::Value value(std::move(signal));
      const Origin at = where(node);
      value.location = {at.file, at.line, at.column};
      try {
        b.signal = input_from(value, 0);
      } catch (const InputError& e) {
        throw relocated(e, where(node));
      } catch (const std::invalid_argument& e) {
        throw DiagramError(where(node), e.what());
      }
      return b;
    }
    if (b.type == "subsystem") {
      read_subsystem(node, b);
      return b;
    }
    for (const auto& entry : node) {
      const std::string name = entry.first.Scalar();
      if (name == "type") continue;
      if (b.type == "function" && name == "inputs") {
        if (!entry.second.IsSequence())
          fail(entry.second, "expected `inputs:` to be a list of names");
        for (const auto& input : entry.second)
          b.function_inputs.push_back(text_of(input, "an input name"));
        continue;
      }
      b.params.push_back(read_param(name, entry.second));
    }
    return b;
  }

  void read_subsystem(const YAML::Node& node, BlockSpec& b) const {
    for (const auto& entry : node) {
      const std::string key = entry.first.Scalar();
      if (key != "type" && key != "file" && key != "parameters") {
        fail(entry.first, "unknown key '" + key + "' of a subsystem" +
                              framework::did_you_mean(key, {"file", "parameters"}) +
                              "; known: file, parameters");
      }
    }
    if (!node["file"]) fail(node, "subsystem '" + b.name + "' needs `file:` (another diagram)");
    const fs::path file = fs::path(file_).parent_path() / text_of(node["file"], "file");
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(file, ec);
    for (const auto& open : including_) {
      if (open == canonical) {
        fail(node["file"], "subsystem '" + b.name + "' includes '" + file.string() +
                               "', which includes it: a diagram cannot contain itself");
      }
    }
    if (const YAML::Node params = node["parameters"]) {
      if (!params.IsMap())
        fail(params, "expected `parameters:` to be a mapping from name to value");
      for (const auto& entry : params) {
        Param p = read_param(entry.first.Scalar(), entry.second);
        p.origin = where(entry.first);
        b.params.push_back(std::move(p));
      }
    }
    const fs::path key = canonical.empty() ? file : canonical;
    if (const auto it = parsed_->find(key); it != parsed_->end()) {
      b.subsystem = it->second;
      return;
    }
    std::string text;
    try {
      text = text_of_file(file, "subsystem file");
    } catch (const DiagramError& e) {  // said where the file is named
      fail(node["file"], "subsystem '" + b.name + "': '" + file.string() + "': " + e.message());
    }
    std::vector<fs::path> chain = including_;
    chain.push_back(canonical);
    b.subsystem = std::make_shared<DiagramSpec>(Reader(file.string(), chain, parsed_).parse(text));
    parsed_->emplace(key, b.subsystem);
  }

  PortRef port_of(const YAML::Node& node) const {
    const std::string text = text_of(node, "a port (block or block.port)");
    PortRef ref;
    ref.origin = where(node);
    const auto dot = text.find('.');
    ref.block = text.substr(0, dot);
    if (dot != std::string::npos) ref.port = text.substr(dot + 1);
    if (!is_name(ref.block) || (dot != std::string::npos && !is_name(ref.port))) {
      fail(node, "expected a port written block or block.port, found '" + text + "'");
    }
    return ref;
  }

  void read_connections(const YAML::Node& node, DiagramSpec& spec) const {
    if (!node.IsSequence()) fail(node, "expected `connections:` to be a list of [source, target]");
    for (const auto& c : node) {
      if (!c.IsSequence() || c.size() != 2) fail(c, "expected a connection [source, target]");
      spec.connections.push_back({port_of(c[0]), port_of(c[1]), where(c)});
    }
  }

  void read_outputs(const YAML::Node& node, DiagramSpec& spec) const {
    if (!node.IsMap()) fail(node, "expected `outputs:` to be a mapping from name to port");
    for (const auto& entry : node) {
      const std::string name = entry.first.Scalar();
      if (!is_name(name))
        fail(entry.first, "output name '" + name + "' must be letters, digits, _");
      spec.outputs.push_back({name, port_of(entry.second)});
    }
  }

  // units: {time: s, position: m, g: m/s^2, ...}
  void read_units(const YAML::Node& node, DiagramSpec& spec) const {
    if (!node.IsMap()) fail(node, "expected `units:` to be a mapping from name to unit");
    for (const auto& entry : node) {
      const std::string name = text_of(entry.first, "a name in `units:`");
      spec.units.push_back(
          {name, text_of(entry.second, "the unit of '" + name + "'"), where(entry.first)});
    }
  }

  // second_order: {positions: [integrator, ...], velocities: [integrator, ...]}
  void read_second_order(const YAML::Node& node, DiagramSpec& spec) const {
    if (!node.IsMap() || !node["positions"] || !node["velocities"] || node.size() != 2) {
      fail(node, "expected second_order: {positions: [integrators], velocities: [integrators]}");
    }
    simulation::diagram::SecondOrderSpec declared;
    declared.origin = where(node);
    for (const auto& [key, names] : {std::pair{"positions", &declared.positions},
                                     std::pair{"velocities", &declared.velocities}}) {
      const YAML::Node list = node[key];
      if (!list.IsSequence())
        fail(list, std::string("expected ") + key + " to be a list of integrators");
      for (const auto& name : list) {
        PortRef ref = port_of(name);
        if (!ref.port.empty()) fail(name, "expected a block name, found '" + ref.str() + "'");
        names->push_back(std::move(ref));
      }
    }
    spec.second_order = std::move(declared);
  }

  void read_loops(const YAML::Node& node, DiagramSpec& spec) const {
    auto& loops = spec.loops;
    loops.origin = where(node);
    if (node.IsScalar()) {
      if (node.Scalar() != "refuse") {
        fail(node,
             "expected algebraic_loops: refuse, or {solve: newton | fixed_point, tol, "
             "max_iter, relaxation}");
      }
      return;
    }
    if (!node.IsMap()) fail(node, "expected algebraic_loops: refuse or a mapping");
    for (const auto& entry : node) {
      const std::string key = entry.first.Scalar();
      if (std::find(kLoopKeys.begin(), kLoopKeys.end(), key) == kLoopKeys.end()) {
        fail(entry.first, "unknown key '" + key + "' of algebraic_loops" +
                              framework::did_you_mean(key, kLoopKeys) +
                              "; known: " + core::join(kLoopKeys));
      }
    }
    if (!node["solve"]) fail(node, "algebraic_loops needs `solve: newton` or `solve: fixed_point`");
    const std::string solve = text_of(node["solve"], "solve");
    if (solve == "newton") {
      loops.policy = LoopPolicy::newton;
    } else if (solve == "fixed_point") {
      loops.policy = LoopPolicy::fixed_point;
    } else {
      fail(node["solve"], "expected solve: newton or fixed_point, found '" + solve + "'");
    }
    if (const YAML::Node tol = node["tol"]) {
      loops.tol = number(tol, "tol");
      if (!(loops.tol > 0.0)) fail(tol, "tol must be positive");
    }
    if (const YAML::Node max_iter = node["max_iter"]) {
      const double n = number(max_iter, "max_iter");
      if (!(n >= 1.0) || n != static_cast<double>(static_cast<int>(n))) {
        fail(max_iter, "max_iter must be a whole number >= 1");
      }
      loops.max_iter = static_cast<int>(n);
    }
    if (const YAML::Node r = node["relaxation"]) {
      loops.relaxation = number(r, "relaxation");
      if (!(loops.relaxation > 0.0 && loops.relaxation <= 2.0)) {
        fail(r, "relaxation must be in (0, 2]");
      }
    }
  }

  std::string file_;
  std::vector<fs::path> including_;
  std::shared_ptr<ParsedFiles> parsed_;
};

}  // namespace

DiagramSpec parse_diagram(const std::string& text, const std::string& file_name) {
  std::error_code ec;
  return Reader(file_name, {fs::weakly_canonical(file_name, ec)}).parse(text);
}

DiagramSpec read_diagram(const fs::path& file) {
  return parse_diagram(text_of_file(file, "diagram file"), file.string());
}

std::shared_ptr<const simulation::diagram::CompiledDiagram> load_diagram(const fs::path& file) {
  static std::mutex mutex;
  static std::map<fs::path, std::shared_ptr<const simulation::diagram::CompiledDiagram>> cache;
  std::error_code ec;
  const fs::path key = fs::weakly_canonical(file, ec);
  {
    const std::lock_guard lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  auto compiled = simulation::diagram::compile(read_diagram(file));
  const std::lock_guard lock(mutex);
  return cache.emplace(key, std::move(compiled)).first->second;
}

bool is_diagram_path(const std::string& model) {
  return model.ends_with(".yaml") || model.ends_with(".yml");
}

}  // namespace simverify::components
