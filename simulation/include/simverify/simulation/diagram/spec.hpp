#pragma once
// A block diagram as written (block-diagram lecture architecture, DIAGRAM-FORMAT.md): blocks with
// parameters, connections from outputs to inputs, named outputs and how algebraic loops are
// treated. This is plain data: a reader (the YAML one lives in the components layer) or a
// program fills it in, and compile() (diagram_model.hpp) turns it into an execution plan.
// Every piece remembers where it was written, so errors found while compiling point there.
#include <simverify/simulation/input_signal.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::simulation::diagram {

// Where a piece of a diagram was written; empty for diagrams built in code.
struct Origin {
  std::string file;
  int line = 0;                           // 1-based; 0 when unknown
  int column = 0;                         // 1-based
  [[nodiscard]] std::string str() const;  // "file:line:column", or "" when unknown
};

// A diagram that cannot be compiled. what() is "file:line:column: message".
class DiagramError : public std::invalid_argument {
 public:
  DiagramError(Origin where, const std::string& message);
  [[nodiscard]] const Origin& where() const { return where_; }
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  Origin where_;
  std::string message_;
};

// A block parameter as written: numbers (a scalar, a list or a matrix given as rows) or a
// text (the name of a diagram parameter, a sum's signs, a function's expression, ...).
struct Param {
  std::string name;
  std::vector<double> values;  // row-major
  int rows = 0;                // a scalar is 1 x 1, a list 1 x n
  int cols = 0;
  bool is_text = false;
  std::string text;
  Origin origin;
  [[nodiscard]] bool is_scalar() const { return !is_text && rows == 1 && cols == 1; }
};

struct DiagramSpec;

struct BlockSpec {
  std::string name;  // letters, digits, _
  std::string type;  // constant, gain, integrator, ... (docs/diagrams.md)
  std::vector<Param> params;
  std::vector<std::string> function_inputs;      // `function`: the names of its inputs
  InputPtr signal;                               // `signal`: the source signal
  std::shared_ptr<const DiagramSpec> subsystem;  // `subsystem`: the diagram it contains
  Origin origin;
  [[nodiscard]] const Param* find(std::string_view param) const;
};

// `block.port`; an empty port means the block's only output (as a source) or only input
// (as a target).
struct PortRef {
  std::string block;
  std::string port;
  Origin origin;
  [[nodiscard]] std::string str() const { return port.empty() ? block : block + "." + port; }
};

struct ConnectionSpec {
  PortRef source;
  PortRef target;
  Origin origin;
};

struct OutputSpec {
  std::string name;
  PortRef port;
};

enum class LoopPolicy { refuse, fixed_point, newton };

// How feed-through cycles are treated: refused at compile time, or solved at every
// evaluation to `tol` (relative) within `max_iter` iterations.
struct LoopSettings {
  LoopPolicy policy = LoopPolicy::refuse;
  double tol = 1e-12;
  int max_iter = 100;
  double relaxation = 1.0;  // fixed_point: guess += relaxation (new - guess)
  Origin origin;
};

// `second_order:` the diagram is x'' = g(t, q) (Runge-Kutta-Nystrom methods): positions[i]
// and velocities[i] name the integrators of one coordinate. compile() checks the structure.
struct SecondOrderSpec {
  std::vector<PortRef> positions;  // block names (the port is empty)
  std::vector<PortRef> velocities;
  Origin origin;
};

struct ParameterDecl {
  std::string name;
  double value = 0.0;
  Origin origin;
};

// `units:` one entry: the unit of the time (`time`), an output, a parameter or every state of a
// stateful block, as engineers write it ("m/s^2").
struct UnitDecl {
  std::string name;
  std::string unit;
  Origin origin;
};

struct DiagramSpec {
  std::string name;  // the model's name (the file name for files)
  std::string description;
  std::vector<ParameterDecl> parameters;
  std::vector<BlockSpec> blocks;
  std::vector<ConnectionSpec> connections;
  std::vector<OutputSpec> outputs;
  LoopSettings loops;
  std::optional<SecondOrderSpec> second_order;
  std::vector<UnitDecl> units;
  Origin origin;
};

// The most blocks a diagram may have once its subsystems are flattened (each instance of a
// subsystem counts its file's blocks again). compile() checks it before flattening a
// subsystem, so a file that includes another twice at every level (2^depth blocks) is an
// error at the subsystem that would cross it, not an exhausted machine.
inline constexpr std::uint64_t kMaxFlatBlocks = 1'000'000;

// The block types compile() knows, sorted (for messages and docs).
[[nodiscard]] const std::vector<std::string>& block_types();

}  // namespace simverify::simulation::diagram
