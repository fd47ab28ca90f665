#pragma once
// Internal: turning a BlockSpec into a Block. A factory per block type reads the block's
// parameters through a BlockBuilder, which resolves them (a number becomes the model
// parameter `<block>.<param>`, a name the diagram parameter it names) and refuses what the
// type does not know.
#include "block.hpp"

#include <simverify/simulation/ode_system.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simverify::simulation::diagram::detail {

// The model's parameters, collected while compiling.
struct ParameterTable {
  std::vector<ParameterSpec> specs;
  int add(std::string name, double value, std::string description);
  [[nodiscard]] std::vector<double> defaults() const;
};

// A numeric list or matrix parameter whose elements are model parameters, consecutive and
// row-major from `first`: `<block>.<param>[i]` for a list, `<block>.<param>[i][j]` for a
// matrix (0-based, as states are named `<block>[i]`).
struct Elements {
  int first = -1;  // -1: the optional parameter is absent
  int rows = 0;
  int cols = 0;
  [[nodiscard]] int size() const { return rows * cols; }
  [[nodiscard]] const double* in(const double* p) const { return p + first; }
};

// A block's `lower`/`upper` pair (saturation, limited integrator): model parameter indices
// (-1 when absent) and their names. Every run's values must keep lower <= upper: checked on the
// file's values at compile time and on each run's (p.<block>.lower overrides) by misfit().
struct Limits {
  int lower = -1;
  int upper = -1;
  std::string lower_name;
  std::string upper_name;
  // "lower must not exceed upper: p.sat.lower = 2 > p.sat.upper = 1", empty when they fit.
  [[nodiscard]] std::string misfit(const double* p) const;
};

// The diagram parameters visible inside one (sub)diagram: name -> model parameter index.
struct Scope {
  std::vector<std::pair<std::string, int>> names;
  [[nodiscard]] int find(std::string_view name) const;  // -1 when unknown
  [[nodiscard]] std::vector<std::string> known() const;
};

class BlockBuilder {
 public:
  BlockBuilder(const BlockSpec& spec, std::string name, ParameterTable& table, const Scope& scope)
      : spec_(spec), name_(std::move(name)), table_(table), scope_(scope) {}

  // A scalar parameter's model parameter index (required / with a default / -1 when absent).
  [[nodiscard]] int scalar(std::string_view param);
  [[nodiscard]] int scalar_or(std::string_view param, double fallback);
  [[nodiscard]] int optional_scalar(std::string_view param);
  // Numbers fixed at compile time (structure, such as a mux's width): a list (a scalar is a
  // list of one).
  [[nodiscard]] std::vector<double> list(std::string_view param);
  // Numbers each run may override element by element: a list (a scalar is a list of one)
  // or a matrix (a list of rows; a list is one row). `fallback` fills an absent list.
  [[nodiscard]] Elements list_elements(std::string_view param);
  [[nodiscard]] Elements list_elements_or(std::string_view param,
                                          const std::vector<double>& fallback);
  [[nodiscard]] Elements matrix_elements(std::string_view param);
  // `lower` and `upper` (both required or both optional), refused at `lower` when the file's
  // values cross.
  [[nodiscard]] Limits limits(bool required);
  // The default values of elements (for compile-time checks and structure).
  [[nodiscard]] std::vector<double> defaults(const Elements& e) const;
  [[nodiscard]] bool has(std::string_view param) const { return spec_.find(param) != nullptr; }
  [[nodiscard]] std::string text_or(std::string_view param, std::string fallback);
  // The default value a scalar parameter index currently has (for compile-time checks).
  [[nodiscard]] double default_of(int index) const;
  // Refuses parameters the block type does not know, listing the ones it does.
  void finish(const std::vector<std::string>& known) const;

  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail(const Param& at, const std::string& message) const;

  [[nodiscard]] const BlockSpec& spec() const { return spec_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const Scope& scope() const { return scope_; }
  [[nodiscard]] const ParameterTable& table() const { return table_; }

 private:
  const Param& required(std::string_view param) const;
  Elements add_elements(const std::string& param, const std::vector<double>& values, int rows,
                        int cols, bool matrix);

  const BlockSpec& spec_;
  std::string name_;
  ParameterTable& table_;
  const Scope& scope_;
};

// The block a spec describes (not a subsystem: compile() flattens those); `inport_index` is
// the position of an inport among the diagram's inports.
[[nodiscard]] std::unique_ptr<Block> make_block(BlockBuilder& b, int inport_index);

// Factories by group (one file each).
std::unique_ptr<Block> make_source(BlockBuilder& b,
                                   int inport_index);    // constant, inport, clock, signal
std::unique_ptr<Block> make_math(BlockBuilder& b);       // gain, sum, product, mux, demux
std::unique_ptr<Block> make_nonlinear(BlockBuilder& b);  // saturation, switch, lookup_table
std::unique_ptr<Block> make_dynamic(BlockBuilder& b);  // integrator, transfer_function, state_space
std::unique_ptr<Block> make_function(BlockBuilder& b);  // function (muParser)
std::unique_ptr<Block> make_zero_order_hold(BlockBuilder& b);
// A subsystem's inport, flattened: y = u with direct feed-through.
std::unique_ptr<Block> make_passthrough();

}  // namespace simverify::simulation::diagram::detail
