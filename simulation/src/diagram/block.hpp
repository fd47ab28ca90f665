#pragma once
// Internal: a block of a compiled diagram (block-diagram lecture `Block`, an S-function): declared
// inputs (each with or without direct feed-through, block-diagram lecture `InputDeclaration`),
// outputs, states and zero-crossing events; compile() binds its ports to slots of the flat signal
// array and its states to a range of the model's state vector. Evaluating reads and writes only
// those slots: no strings, maps or allocation.
#include <simverify/simulation/diagram/spec.hpp>
#include <simverify/simulation/model.hpp>

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace simverify::simulation::diagram::detail {

struct Workspace;
class AffineForms;

// Per-workspace state of a block that needs more than signal slots (an expression parser).
class BlockScratch {
 public:
  virtual ~BlockScratch() = default;
  // The run's parameters in the workspace changed (what was folded from them is stale).
  virtual void parameters_changed() {}
};

// Which sample-and-hold blocks take a new sample in this evaluation (zero_order_hold): none
// between samples, the ones whose sampling instant t is, or all of them (the run's start).
enum class Sampling { none, due, all };

// Everything one evaluation sees.
struct Frame {
  double t = 0.0;
  const double* x = nullptr;               // the model's state vector
  double* dxdt = nullptr;                  // its derivative (derivative() only)
  const double* p = nullptr;               // the run's parameters (ModelInfo::parameters order)
  double* s = nullptr;                     // signal slots
  const InputSample* u = nullptr;          // one per inport, in inport order
  BlockScratch* const* scratch = nullptr;  // per block, null for most
  Sampling sampling = Sampling::none;
  // Context::input_limit: up to a time event the last instant before it. Sources with jumps
  // (a `signal`) read at min(t, input_limit), the value before the jump, as the inports do.
  double input_limit = std::numeric_limits<double>::infinity();
  // Context::mode of the run: bit Block::latch holds a switch's branch (1: u1) while `latched`.
  // Not latched (a context no run set up, the evaluation that sets the latches): a switch
  // decides by its control.
  int mode = 0;
  bool latched = false;
};

struct Port {
  std::string name;
  int width = 1;
  bool feedthrough = true;  // inputs only: the output reads this input directly
};

struct BlockEvent {
  std::string name;  // suffix after "<block>."
  EventDirection direction = EventDirection::either;
};

class Block {
 public:
  virtual ~Block() = default;

  // Output slots from the inputs (feed-through) and the states.
  virtual void output(const Frame& f) const = 0;
  // The block's state derivatives from its inputs and states (stateful blocks).
  virtual void derivative(const Frame& /*f*/) const {}
  // Zero-crossing function i of the block's `events`.
  [[nodiscard]] virtual double event(std::size_t /*i*/, const Frame& /*f*/) const { return 0.0; }
  // The action at a located crossing (an integrator limit clamps its state).
  virtual void on_event(std::size_t /*i*/, const double* /*p*/, double* /*x*/) const {}
  // Blocks with a latched branch (a switch, `latch` >= 0): the branch its inputs select now,
  // regardless of the latch (1: the upper branch).
  [[nodiscard]] virtual bool branch(const Frame& /*f*/) const { return false; }
  // Sampled blocks (a zero-order hold): the first sampling instant after t (+infinity for
  // continuous blocks), and the new sample written into the block's states after an
  // evaluation with f.sampling set (the output then already shows it).
  [[nodiscard]] virtual double next_sample(double /*t*/, const double* /*p*/) const {
    return std::numeric_limits<double>::infinity();
  }
  virtual void take_sample(const Frame& /*f*/, double* /*x*/) const {}
  // A sampled block's period for the parameters p (0 for others).
  [[nodiscard]] virtual double sample_period(const double* /*p*/) const { return 0.0; }
  // Timed blocks: the first instant after t at which the output jumps or kinks (a `signal`'s
  // InputSignal::next_jump, the breakpoints of a table of t), +infinity when none. The model
  // reports them as time events, so no step straddles one (DiagramModel::next_time_event).
  [[nodiscard]] virtual double next_breakpoint(double /*t*/, const double* /*p*/) const {
    return std::numeric_limits<double>::infinity();
  }
  // Why the run's parameters do not fit the structure compile() fixed from the file's values
  // (a transfer function's order, a state space's feed-through, a table's increasing x);
  // empty when they fit.
  [[nodiscard]] virtual std::string misfit(const double* /*p*/) const { return {}; }
  // The block's initial states from the run's parameters.
  virtual void initial_state(const double* /*p*/, double* /*x0*/) const {}
  [[nodiscard]] virtual std::unique_ptr<BlockScratch> make_scratch(double* /*signals*/,
                                                                   double* /*parameters*/,
                                                                   double* /*time*/) const {
    return nullptr;
  }
  // The block as affine forms over the diagram's states, inports and t (linear_form.hpp): its
  // outputs' forms from its feed-through inputs' forms, true; false when they are not affine
  // (the diagram is then evaluated block by block). Called when the run's parameters change,
  // never while evaluating; read parameters through forms.parameter().
  virtual bool affine_output(AffineForms& /*forms*/) const { return false; }
  // Stateful blocks: their state derivatives' forms from their inputs' and states' forms.
  virtual bool affine_derivative(AffineForms& /*forms*/) const { return false; }
  // The inport this block reads, -1 for other blocks.
  [[nodiscard]] virtual int inport() const { return -1; }

  [[nodiscard]] double in(const Frame& f, std::size_t k) const { return f.s[in_slot[k]]; }
  [[nodiscard]] const double* in_ptr(const Frame& f, std::size_t k) const {
    return f.s + in_slot[k];
  }
  double& out(const Frame& f, std::size_t k = 0) const { return f.s[out_slot[k]]; }

  // Declared by the block's factory.
  std::string name;  // flattened: "sub/inner" inside subsystems
  std::string type;
  Origin origin;
  std::vector<Port> inputs;
  std::vector<Port> outputs;
  int states = 0;
  std::vector<BlockEvent> events;
  // Model parameters the block's scratch reads from Workspace::p by address (a function
  // block's expression variables); the others read Frame::p directly.
  std::vector<int> parameters_by_address;
  bool sampled = false;  // takes samples at instants of its own (next_sample, take_sample)
  bool timed = false;    // has jumps or kinks at instants known in advance (next_breakpoint)
  // Bound by compile().
  std::vector<int> in_slot;   // first slot of the signal driving each input
  std::vector<int> out_slot;  // first slot of each output
  int state_offset = 0;
  int index = 0;   // position in the plan's block list
  int latch = -1;  // the bit of Context::mode holding its branch (a switch), -1: none
};

}  // namespace simverify::simulation::diagram::detail
