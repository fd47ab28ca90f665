#pragma once
// A model is a parametrized control system x' = f(t, x, u, p), y = h(t, x, u, p) (Def 4.1,
// Remark 4.2). The model is a const description shared read-only by every run of a grid; what
// changes during one run (parameters after an event, the discrete mode) lives in a Context.
#include <simverify/simulation/ode_system.hpp>
#include <simverify/simulation/stepper.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace simverify::simulation {

// u(t) and its time derivative (the quarter car needs both, Sec 2.4).
struct InputSample {
  double value = 0.0;
  double derivative = 0.0;
};

// What varies per run and may be changed by events.
struct Context {
  std::span<const double> p;  // parameter values, in the order of ModelInfo::parameters
  InputSample u;
  int mode = 0;  // discrete mode of hybrid models (e.g. the pendulum's active length)
  // Writable view of the same parameter values, set by the simulator only while on_event
  // runs (the parameter-change action of an event); empty elsewhere. It points into the
  // run's own copy of the parameters, so a change never leaks into other runs of a grid.
  std::span<double> p_mutable{};
  // Alg 6 (multiscale sampling): the sampling instant t_k of the interval being integrated,
  // NaN when the run has no sampling grid. The simulator then holds the run's u at u(t_k)
  // (`u` above), and a model that reads input signals of its own (a diagram's inports, an
  // FMU's inputs) reads them at input_time(t) = t_k, derivative 0, as well: every stage of a
  // step sees the sample of its interval, even a stage on the interval's end (a noise
  // input: the draw of its interval, whatever steps the method takes).
  double sampled_at = std::numeric_limits<double>::quiet_NaN();
  // While the simulator integrates up to a jump of an input (InputSignal::next_jump) or a
  // time event, the last instant before it: inputs are read at min(t, input_limit), so a
  // stage on the step's end sees the value before the jump, as every other stage does.
  double input_limit = std::numeric_limits<double>::infinity();

  [[nodiscard]] bool sampled() const { return !std::isnan(sampled_at); }
  // The time at which a model reads an input signal of its own during an evaluation at t.
  [[nodiscard]] double input_time(double t) const {
    return sampled() ? sampled_at : std::min(t, input_limit);
  }
};

struct ParameterSpec {
  std::string name;
  double default_value = 0.0;
  std::string unit;
  std::string description;
};

enum class EventDirection { rising = 1, falling = -1, either = 0 };

struct EventSpec {
  std::string name;
  EventDirection direction = EventDirection::either;
  bool terminal = false;
};

enum class EventAction { resume, terminate };

// What a model asks for after an accepted step (FMI's completedIntegratorStep).
enum class StepRequest { none, event, terminate };

// Second-order structure x'' = g(t, q) (Runge-Kutta-Nystrom methods, nystrom_tableau.hpp):
// the states are positions q and their velocities q', and the accelerations depend on t, q
// (and inputs, parameters) only. positions[i] and velocities[i] index the states of one
// coordinate; together they cover every state once.
struct SecondOrderStructure {
  std::vector<Eigen::Index> positions;
  std::vector<Eigen::Index> velocities;
};

struct ModelInfo {
  std::string name;
  std::string variant;  // empty for models without variants
  std::string description;
  std::vector<std::string> states;
  std::vector<std::string> outputs;
  // Units as engineers write them ("m/s^2"; "1": dimensionless), parallel to states and
  // outputs; shorter or empty: not declared. The report labels axes and tables with them.
  std::vector<std::string> state_units;
  std::vector<std::string> output_units;
  std::string time_unit = "s";
  std::vector<ParameterSpec> parameters;
  std::vector<EventSpec> events;
  Vector default_x0;
  double default_tf = 1.0;
  // True when exact_solution() is exact only for a constant input (it reads context.u as
  // u(t0) and assumes u' = 0, e.g. spring_mass_damper, quarter_car): callers must fall back
  // to a reference solution when u varies.
  bool exact_solution_needs_constant_input = false;
  // True when exact_solution() applies the model's event actions (the hybrid solution,
  // e.g. constrained_pendulum/linear, bouncing_ball/event): it is the reference only for
  // runs with events enabled.
  bool exact_solution_follows_events = false;
  // False for a model whose f and h never read u: a requirement that gives it an input `u` is
  // then refused (the signal would be silently ignored). True (the default) for models that
  // read context.u, and for those that do not say.
  bool takes_input = true;
  // Declared by models with x'' = g(t, q), which then implement Model::acceleration.
  std::optional<SecondOrderStructure> second_order;
};

class Model {
 public:
  virtual ~Model() = default;

  // What the model is: given to the constructor by models whose description is fixed;
  // wrappers that derive it from something else (a diagram, an FMU) override this.
  [[nodiscard]] virtual const ModelInfo& info() const { return info_; }

  // x' = f(t, x, u, p)
  virtual void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const = 0;

  // q'' = g(t, q, u, p) for models with ModelInfo::second_order: the accelerations of the
  // positions q (in the order of second_order.positions). rhs() must agree with it.
  virtual void acceleration(double t, const Vector& q, const Context& context, Vector& qdd) const;
  // Why, with these parameter values, the acceleration depends on the velocity after all
  // (vertical_throw with drag): no Runge-Kutta-Nystrom method then. Nothing when it does not.
  [[nodiscard]] virtual std::optional<std::string> velocity_dependence(
      std::span<const double> /*p*/) const {
    return std::nullopt;
  }

  // The fixed-size path (docs/simulator.md): a stepper for `method` whose whole step is
  // compiled for this model's state count with rhs() inlined into its stages, reading
  // `context` (which must outlive it) at every evaluation, as rhs() does with u = 0. nullptr
  // (the default) when the model or the method has none: the simulator keeps the generic
  // stepper. Built-in models with up to 16 states opt in (models/fixed_size_rhs.hpp).
  [[nodiscard]] virtual std::unique_ptr<Stepper> fixed_size_stepper(
      const std::string& /*method*/, const Context& /*context*/) const {
    return nullptr;
  }

  // y = h(t, x, u, p); by default the outputs are the states.
  virtual void output(double t, const Vector& x, const Context& context, Vector& y) const;

  // df/dx where the model knows it; solvers fall back to finite differences otherwise.
  [[nodiscard]] virtual bool has_jacobian() const { return false; }
  virtual void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const;

  // x(t; t0, x0) for models with a closed-form solution (used for error measures).
  [[nodiscard]] virtual bool has_exact_solution() const { return false; }
  virtual void exact_solution(double t, double t0, const Vector& x0, const Context& context,
                              Vector& x) const;

  // Zero-crossing event functions g_i(t, x) in the order of ModelInfo::events.
  virtual double event_value(std::size_t index, double t, const Vector& x,
                             const Context& context) const;
  // All g_i at one point into g (size: the number of events). By default event_value for
  // each; a model that computes them together (an FMU's one call for all indicators)
  // overrides it, so a sample of N events costs one evaluation rather than N.
  virtual void event_values(double t, const Vector& x, const Context& context,
                            std::span<double> g) const;
  // Applied at a located crossing: may reset x and change the context's mode.
  virtual EventAction on_event(std::size_t index, double t, Vector& x, Context& context) const;
  // The mode a run starts in, chosen from the initial state. Called once at the start of
  // every run: a model with state of its own (an FMU instance) starts the run here.
  [[nodiscard]] virtual int initial_mode(double t0, const Vector& x0, const Context& context) const;

  // Hybrid models that schedule their own discontinuities (an FMU's time and step events;
  // the built-in models keep these defaults). Called by the simulator in this order:
  //   initial_state (when the settings give no x0), initial_mode, then while running
  //   next_time_event after the start and after every event, after_step after every
  //   accepted step (at the located time when a state event cut the step short).
  // The run's initial state when the settings give none: ModelInfo::default_x0 unless the
  // model computes it from the run's parameters (an FMU's initialization).
  [[nodiscard]] virtual Vector initial_state(double t0, const Context& context) const;
  // The next scheduled event after t, +infinity when none: the simulator integrates up to it
  // exactly and calls on_time_event there.
  [[nodiscard]] virtual double next_time_event(double t, const Context& context) const;
  virtual EventAction on_time_event(double t, Vector& x, Context& context) const;
  // The periods of the model's own sampling instants (a diagram's zero_order_hold), each with
  // a name for messages ("zero_order_hold 'z' T"), for the run's parameters p. The simulator
  // refuses a period below the run's time resolution, or one whose instants alone would trip
  // the Zeno guard, as it refuses such a sample_time. None by default.
  [[nodiscard]] virtual std::vector<std::pair<std::string, double>> sample_periods(
      std::span<const double> p) const;
  // Called with the state after every accepted step: `event` asks for on_step_event at the
  // end of that step, `terminate` ends the run there.
  [[nodiscard]] virtual StepRequest after_step(double t, const Vector& x,
                                               const Context& context) const;
  virtual EventAction on_step_event(double t, Vector& x, Context& context) const;

  [[nodiscard]] Eigen::Index state_dimension() const {
    return static_cast<Eigen::Index>(info().states.size());
  }
  // Index of a named parameter; throws listing the known names when unknown.
  [[nodiscard]] std::size_t parameter_index(const std::string& name) const;
  [[nodiscard]] std::vector<double> default_parameters() const;

 protected:
  Model() = default;
  explicit Model(ModelInfo info) : info_(std::move(info)) {}
  Model(const Model&) = default;
  Model& operator=(const Model&) = default;
  Model(Model&&) = default;
  Model& operator=(Model&&) = default;

 private:
  ModelInfo info_;
};

}  // namespace simverify::simulation
