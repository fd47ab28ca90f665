#pragma once
// A block diagram compiled once into an execution plan, and the plan as a Model (block-diagram
// lecture sections 4.4-4.5). compile() flattens subsystems, resolves ports and parameters, finds
// the feed-through cycles (Tarjan's strongly connected components), orders the blocks and lays
// every signal out in one flat array; evaluating the plan then touches no strings, maps or
// heap. Because a compiled diagram is a Model, every method, events, sensitivities and every
// component run on it unchanged.
//
//   auto diagram = compile(spec);                       // throws DiagramError
//   DiagramModel model(diagram);                        // one inport: the run's u(t)
//   Simulator sim(model, {.method = "ode45", .tf = 2.0});
#include <simverify/simulation/diagram/spec.hpp>
#include <simverify/simulation/model.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace simverify::simulation::diagram {

namespace detail {
struct Plan;
struct Workspace;
enum class Sampling;
}  // namespace detail

class CompiledDiagram {
 public:
  explicit CompiledDiagram(std::unique_ptr<const detail::Plan> plan);
  ~CompiledDiagram();
  CompiledDiagram(const CompiledDiagram&) = delete;
  CompiledDiagram& operator=(const CompiledDiagram&) = delete;

  // States (stateful blocks in file order, `<block>` or `<block>[i]`), outputs (the
  // diagram's `outputs`), parameters (diagram parameters, then `<block>.<param>` for every
  // numeric scalar block parameter, `<block>.<param>[i]` / `[i][j]` for the elements of list
  // and matrix ones) and events (the corners of discontinuous blocks).
  [[nodiscard]] const ModelInfo& info() const;
  // The inports' names in file order: one inport reads the run's u, several read u.<name>.
  [[nodiscard]] const std::vector<std::string>& inports() const;
  // Why a run's parameter values (ModelInfo::parameters order) do not fit the structure the
  // file fixed ("block 'tf' (transfer_function): den[0] ... must not be 0"); empty when they
  // fit. Overriding list and matrix elements changes values, never the order of a transfer
  // function, the feed-through of a state space or the increasing breakpoints of a table.
  [[nodiscard]] std::optional<std::string> misfit(std::span<const double> p) const;
  // The plan in words: blocks in evaluation order, states, loops and how they are solved.
  [[nodiscard]] std::string describe() const;
  // The flattened diagram as a Graphviz digraph (feed-through loops drawn red).
  [[nodiscard]] std::string dot() const;

  [[nodiscard]] const detail::Plan& plan() const { return *plan_; }

 private:
  std::unique_ptr<const detail::Plan> plan_;
};

// Throws DiagramError at the offending piece: unknown block type, port or parameter, an
// input driven twice or not at all, a refused algebraic loop, wrong matrix sizes, a bad
// expression, ...
[[nodiscard]] std::shared_ptr<const CompiledDiagram> compile(const DiagramSpec& spec);

using NamedInputs = std::vector<std::pair<std::string, InputPtr>>;

class DiagramModel final : public Model {
 public:
  // `inputs` bind inports by name (several inports); an inport without a signal reads the
  // run's u when it is the diagram's only inport, else zero. Throws std::invalid_argument
  // for a name that is no inport.
  explicit DiagramModel(std::shared_ptr<const CompiledDiagram> diagram, NamedInputs inputs = {});
  ~DiagramModel() override;

  [[nodiscard]] const ModelInfo& info() const override { return diagram_->info(); }
  [[nodiscard]] const CompiledDiagram& diagram() const { return *diagram_; }

  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  void output(double t, const Vector& x, const Context& context, Vector& y) const override;
  // A diagram declaring `second_order`: the velocity integrators' inputs at the positions q
  // (compile() checked that no velocity reaches them, so the velocities are left zero).
  void acceleration(double t, const Vector& q, const Context& context, Vector& qdd) const override;
  double event_value(std::size_t index, double t, const Vector& x,
                     const Context& context) const override;
  EventAction on_event(std::size_t index, double t, Vector& x, Context& context) const override;
  // Restarts the loop solvers' warm start, so a run does not depend on the runs before it.
  // Throws std::runtime_error when the run's parameters do not fit (CompiledDiagram::misfit).
  // With sample-and-hold blocks the run starts in a mode that asks for a sample at t0.
  [[nodiscard]] int initial_mode(double t0, const Vector& x0,
                                 const Context& context) const override;
  // x0 of the stateful blocks, read from the run's parameters (p.<block>.x0 overrides it);
  // the holds hold their input at t0.
  [[nodiscard]] Vector initial_state(double t0, const Context& context) const override;
  // The holds' sampling instants (zero_order_hold): the next one after t, and the samples
  // taken there (at t0 too, so a hold holds u(t0) whatever x0 the run was given).
  [[nodiscard]] double next_time_event(double t, const Context& context) const override;
  EventAction on_time_event(double t, Vector& x, Context& context) const override;
  // Switches latch their branch per step (Context::mode): a crossing no state event located
  // (events off) switches the latch at the end of the step that crossed (a step event).
  [[nodiscard]] StepRequest after_step(double t, const Vector& x,
                                       const Context& context) const override;
  EventAction on_step_event(double t, Vector& x, Context& context) const override;
  // Each hold's T, named "zero_order_hold '<block>' T".
  [[nodiscard]] std::vector<std::pair<std::string, double>> sample_periods(
      std::span<const double> p) const override;

 private:
  // The scratch memory of one evaluation (signal slots, loop solver buffers, expression
  // parsers). Runs of a grid share the model across threads, so each thread has its own,
  // created on its first evaluation and reused afterwards.
  detail::Workspace& workspace() const;
  // rhs() off its hot path: the affine map folded again for new parameters, or the blocks
  // evaluated one by one.
  void rhs_folding_or_by_blocks(double t, const Vector& x, const Context& context,
                                Vector& dxdt) const;
  // Evaluates the diagram at (t, x) with the holds sampling (`which` of them) and writes the
  // samples into their states.
  void take_samples(double t, Vector& x, const Context& context, detail::Sampling which) const;

  // The branches the switches' controls select at (t, x) (bit Block::latch each), and the
  // mask of those bits; relatch() sets them into the context's mode.
  [[nodiscard]] int latches(double t, const Vector& x, const Context& context) const;
  [[nodiscard]] int latch_mask() const;
  void relatch(double t, const Vector& x, Context& context) const;

  // Context::mode bit of a run whose holds have not sampled at t0 yet.
  static constexpr int kSamplePending = 1;

  std::shared_ptr<const CompiledDiagram> diagram_;
  std::vector<InputPtr> inputs_;  // per inport, null: u (single inport) or zero
  bool reads_run_u_ = false;      // one inport, reading the run's u
  std::uint64_t id_;
};

}  // namespace simverify::simulation::diagram
