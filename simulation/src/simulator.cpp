// Alg 7: the simulator's step loop (documented in simulator.hpp), with events located on
// the dense output (events.hpp) and the multiscale sampling grid of Def 3.38 / Alg 6.
#include <simverify/simulation/integrate.hpp>
#include <simverify/simulation/method_fit.hpp>
#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include "event_locator.hpp"
#include "multiscale.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>

namespace simverify::simulation {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// The run tells "arrived at t" by this tolerance: 64 eps max(|t0|, |tf|), far above the
// rounding of t0 + sums of steps, far below any step a user means.
double time_resolution(double t0, double tf) {
  return 64.0 * kEps * std::max(std::abs(t0), std::abs(tf));
}

// One run: owns the per-run copy of the parameters, the discrete mode, the held input and
// all workspace, so a Simulator (and the model) stay const and shareable across threads.
class Run {
 public:
  // fixed: the method steps on a fixed grid (the Simulator looked the method up once).
  Run(const Model& model, const SimulatorSettings& settings, std::vector<double> parameters,
      Vector x0, bool fixed)
      : model_(model),
        settings_(settings),
        parameters_(std::move(parameters)),
        fixed_(fixed),
        system_(model.state_dimension(), make_rhs(), make_jacobian()),
        stepper_(make_run_stepper()),
        x_(std::move(x0)),
        x_new_(x_.size()),
        t_eps_(time_resolution(settings.t0, settings.tf)) {
    context_.p = parameters_;
    if (const auto& structure = model.info().second_order) {
      system_.set_second_order({structure->positions, structure->velocities,
                                [this](double t, const Vector& q, Vector& qdd) {
                                  Context local = context_;
                                  local.u = input(t);
                                  model_.acceleration(t, q, local, qdd);
                                }});
    }
    if (settings.events.enabled && !model.info().events.empty()) {
      locator_.emplace(model, settings.events, model.state_dimension());
      input_at_ = [this](double t) { return input(t); };
    }
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  SimulatorResult execute();

 private:
  // The fixed-size path (Model::fixed_size_stepper: f inlined into the whole step) where the
  // model and the method have one and the run has no input signal (its f then reads the run's
  // context as it stands, as make_rhs's does); the method's generic stepper otherwise.
  std::unique_ptr<Stepper> make_run_stepper() const {
    if (!settings_.input) {
      if (auto fixed = model_.fixed_size_stepper(settings_.method, context_)) return fixed;
    }
    return make_stepper(settings_.method);
  }
  OdeSystem::Rhs make_rhs() {
    // Without an input u is 0 throughout (held or not), which context_.u already is: f then
    // reads the run's context itself instead of a copy per evaluation (a third of what the
    // call of f cost besides f).
    if (!settings_.input) {
      return [this](double t, const Vector& x, Vector& dxdt) { model_.rhs(t, x, context_, dxdt); };
    }
    return [this](double t, const Vector& x, Vector& dxdt) {
      Context local = context_;
      local.u = input(t);
      model_.rhs(t, x, local, dxdt);
    };
  }
  OdeSystem::Jacobian make_jacobian() {
    if (!model_.has_jacobian()) return {};
    return [this](double t, const Vector& x, Matrix& dfdx) {
      Context local = context_;
      local.u = input(t);
      model_.jacobian(t, x, local, dfdx);
    };
  }
  // The run's u at t; up to a jump of it or a time event, from the left (Context::input_limit).
  [[nodiscard]] InputSample input(double t) const {
    if (holding_) return held_;
    return settings_.input ? settings_.input->at(std::min(t, context_.input_limit)) : InputSample{};
  }

  bool segment(double t_b, bool record_steps);
  // After each accepted step [t_old, t_]: events, outputs, the model's after_step. Stops
  // the advance when an event happened (go_on: false when the run must end).
  Observed accepted_step(double t_old, double t_b, bool record_steps, bool& go_on);
  // What the model's after_step at t_ asked for, at the end of every accepted step; all a
  // run that records nothing per step does there, so it is inline. Stops the advance when
  // the model asked for a step event or the end of the run (go_on: false when the run must
  // end).
  Observed after_step(StepRequest request, bool record_steps, bool& go_on) {
    if (request == StepRequest::none) return Observed::proceed;
    go_on = step_request(request, record_steps);
    return Observed::stop;
  }
  void restart();
  bool apply_events(double t_event, const Vector& x_event);
  // A time event (at next_time_event_) or a step event (after_step asked for one) at t_;
  // `resume`: the method restarts after it (not at tf, where the run ends).
  bool apply_discrete_event(bool time_event, bool record_steps, bool resume = true);
  // A time event due at tf (a hold's sample instant k T = tf) is part of the run, as every
  // instant of the grid (3.7) up to tf is and as Simulink executes a sample hit at the stop
  // time: its action is applied, x_end is the state after it, and the trajectory shows both
  // sides at tf as at every other instant. False when the model ended the run there.
  bool time_event_at_end(bool record_steps);
  // A step event or the end of the run, asked for by after_step at t_; false when the run
  // must end.
  bool step_request(StepRequest request, bool record_steps);
  // The Zeno guard over every kind of event; false when the run must stop. Tripped by the
  // model's own time or step events (`scheduled`: no physics accumulating, but instants the
  // run cannot get past, such as a hold's tiny sample time) it throws std::runtime_error:
  // the state where it stopped is no result.
  bool note_event(double t, bool scheduled);
  // The chattering guard: throws std::runtime_error after zeno_events consecutive state
  // events in a sliding mode (events.hpp).
  void check_sliding(double t_event, const Vector& x_event);
  [[nodiscard]] Context local_context(double t) const {
    Context local = context_;
    local.u = input(t);
    return local;
  }
  // Inline checks, so a run that records nothing pays no call per step for it (about 40
  // instructions per step, callgrind).
  void emit_outputs(double t_limit, const Vector& x_limit) {
    if (next_output_ < settings_.output_times.size()) emit_due_outputs(t_limit, x_limit);
  }
  void emit_due_outputs(double t_limit, const Vector& x_limit);
  void record(double t, const Vector& x);
  // At a jump of u (t_, input_limit lifted): the step's end recorded the outputs from the left;
  // outputs that feed u through jump with it, so they are recorded again from the right at the
  // same t (as the state after a state event's action is), and reductions see the jump.
  void record_after_jump();
  [[nodiscard]] bool records_steps() const {
    return settings_.record_trajectory && settings_.output_times.empty();
  }

  const Model& model_;
  const SimulatorSettings& settings_;
  std::vector<double> parameters_;
  Context context_;
  bool holding_ = false;
  InputSample held_;
  bool fixed_;
  OdeSystem system_;
  std::unique_ptr<Stepper> stepper_;
  std::optional<detail::EventLocator> locator_;
  detail::EventLocator::InputAt input_at_;
  double t_ = 0.0;
  double h_ = 0.0;
  Vector x_;
  Vector x_new_;
  Vector x_out_;
  Vector x_event_;
  Vector y_;
  std::size_t next_output_ = 0;
  // Ring of the last zeno_events event times; sized at the first event.
  std::vector<double> recent_events_;
  double next_time_event_ = std::numeric_limits<double>::infinity();
  // The next jump of the run's u (InputSignal::next_jump), when it is not held per interval.
  double next_jump_ = std::numeric_limits<double>::infinity();
  std::size_t recent_count_ = 0;
  int sliding_count_ = 0;
  std::size_t sliding_event_ = 0;
  Vector f_probe_;
  Vector x_probe_;
  double t_eps_;
  SimulatorResult result_;
};

void Run::record(double t, const Vector& x) {
  if (!settings_.record_trajectory) return;
  result_.trajectory.append(t, x);
  if (settings_.record_outputs) {
    Context local = context_;
    local.u = input(t);
    model_.output(t, x, local, y_);
    result_.trajectory.outputs.push_back(y_);
  }
}

void Run::record_after_jump() {
  const auto& trajectory = result_.trajectory;
  if (!settings_.record_outputs || trajectory.outputs.empty() ||
      std::abs(trajectory.time.back() - t_) > t_eps_) {
    return;
  }
  model_.output(t_, x_, local_context(t_), y_);
  if (y_ != trajectory.outputs.back()) record(t_, x_);
}

void Run::emit_due_outputs(double t_limit, const Vector& x_limit) {
  const auto& times = settings_.output_times;
  while (next_output_ < times.size() && times[next_output_] <= t_limit + t_eps_) {
    const double t = times[next_output_++];
    if (std::abs(t - t_limit) <= t_eps_) {
      record(t, x_limit);
    } else {
      stepper_->interpolate(t, x_out_);  // dense output: never stage states
      record(t, x_out_);
    }
  }
}

void Run::restart() {
  stepper_->initialize(system_, t_, x_, settings_.stepper);
  if (locator_) locator_->reset(t_, x_, context_, input_at_);
}

bool Run::apply_events(double t_event, const Vector& x_event) {
  t_ = t_event;
  x_ = x_event;
  bool stop = false;
  for (const std::size_t index : locator_->fired()) {
    const EventSpec& spec = model_.info().events[index];
    EventRecord record{.time = t_event,
                       .index = index,
                       .name = spec.name,
                       .state = x_,
                       .mode_before = context_.mode,
                       .mode_after = context_.mode};
    Context local = context_;
    local.u = input(t_event);
    local.p_mutable = parameters_;  // the parameter-change action writes the run's copy
    const EventAction action = model_.on_event(index, t_event, x_, local);
    context_.mode = local.mode;
    record.mode_after = context_.mode;
    result_.events.push_back(std::move(record));
    if (action == EventAction::terminate || spec.terminal) {
      stop = true;
      result_.status = RunStatus::terminated_by_event;
      result_.message = "terminated by event '" + spec.name + "'";
    }
  }
  next_time_event_ = model_.next_time_event(t_event, local_context(t_event));
  if (!stop) check_sliding(t_event, x_event);
  return note_event(t_event, false) && !stop;
}

void Run::check_sliding(double t_event, const Vector& x_event) {
  // Chattering guard (events.hpp): an action that left the state where it was, after which
  // the field carries g straight back across the surface it just crossed (Filippov's
  // sliding condition: the surface attracts from both sides). Such events repeat at the
  // step size the tolerances allow, not within the Zeno window (ode15s on a relay: one
  // every 1e-6 s).
  if (settings_.events.zeno_events <= 0 || x_ != x_event) {
    sliding_count_ = 0;
    return;
  }
  const Context local = local_context(t_event);
  f_probe_.resize(x_.size());
  model_.rhs(t_event, x_, local, f_probe_);
  const double delta = 1.5e-8 * std::max(std::abs(t_event), settings_.tf - settings_.t0);
  x_probe_ = x_ + delta * f_probe_;
  bool sliding = false;
  for (const std::size_t index : locator_->fired()) {
    const double g = model_.event_value(index, t_event, x_, local);
    const double ahead = model_.event_value(index, t_event + delta, x_probe_, local);
    if (g != 0.0 && (ahead - g) * g < 0.0) {
      sliding = true;
      sliding_event_ = index;
    }
  }
  sliding_count_ = sliding ? sliding_count_ + 1 : 0;
  if (sliding_count_ < settings_.events.zeno_events) return;
  std::ostringstream message;
  message << "chattering: event '" << model_.info().events[sliding_event_].name << "' fired "
          << sliding_count_ << " times in a row up to t = " << t_event
          << ", each time with the state on its surface and the dynamics after it pointing "
             "straight back across (a sliding mode the model does not describe); give the "
             "switch hysteresis (two thresholds and a mode) or model the motion on the surface "
             "(Filippov's equivalent dynamics): the run cannot reach tf = "
          << settings_.tf;
  throw std::runtime_error(message.str());
}

bool Run::note_event(double t, bool scheduled) {
  // Zeno guard (events.hpp): N consecutive events inside a tiny window is chattering.
  if (recent_events_.empty()) {  // sized at the first event: most runs have none
    recent_events_.assign(static_cast<std::size_t>(std::max(settings_.events.zeno_events, 1)), 0.0);
  }
  const std::size_t n = recent_events_.size();
  recent_events_[recent_count_ % n] = t;
  ++recent_count_;
  const double window = settings_.events.zeno_window * std::max(1.0, settings_.tf - settings_.t0);
  if (settings_.events.zeno_events > 0 && recent_count_ >= n &&
      t - recent_events_[recent_count_ % n] <= window) {
    if (scheduled) {
      std::ostringstream message;
      message << "Zeno guard: " << n << " events within " << window << " s up to t = " << t
              << ", the last a time or step event the model scheduled (a sampling period too "
                 "small for the run?): the run cannot reach tf = "
              << settings_.tf;
      throw std::runtime_error(message.str());
    }
    if (result_.status == RunStatus::completed) {
      result_.status = RunStatus::zeno;
      result_.message = "Zeno behaviour: " + std::to_string(n) + " events within " +
                        std::to_string(window) + " s up to t = " + std::to_string(t) +
                        "; run stopped";
    }
    return false;
  }
  return true;
}

bool Run::apply_discrete_event(bool time_event, bool record_steps, bool resume) {
  x_event_ = x_;
  const int mode_before = context_.mode;
  Context local = local_context(t_);
  local.p_mutable = parameters_;
  const EventAction action =
      time_event ? model_.on_time_event(t_, x_, local) : model_.on_step_event(t_, x_, local);
  context_.mode = local.mode;
  ++(time_event ? result_.statistics.time_events : result_.statistics.step_events);
  if (record_steps && records_steps() && (x_ != x_event_ || context_.mode != mode_before)) {
    record(t_, x_);  // the state after the action, at the same time
  }
  next_time_event_ = model_.next_time_event(t_, local_context(t_));
  if (action == EventAction::terminate) {
    result_.status = RunStatus::terminated_by_event;
    result_.message = std::string("terminated by the model at a ") +
                      (time_event ? "time" : "step") + " event, t = " + std::to_string(t_);
    return false;
  }
  if (!note_event(t_, true)) return false;
  if (!resume) return true;
  restart();
  if (!fixed_) h_ = std::min(h_, stepper_->initial_step(system_, t_, x_, settings_.tf));
  return true;
}

bool Run::time_event_at_end(bool record_steps) {
  if (!(next_time_event_ - t_ <= t_eps_)) return true;
  if (holding_) {  // under a sampling grid tf is the next interval's instant: inputs sampled there
    holding_ = false;
    held_ = InputSample{.value = input(t_).value, .derivative = 0.0};
    holding_ = true;
    context_.sampled_at = t_;
  }
  const bool go_on = apply_discrete_event(true, record_steps, false);
  // The sampled path records interval ends itself (not per step): the state after the action.
  if (!record_steps && records_steps() && x_ != x_event_) record(t_, x_);
  return go_on;
}

bool Run::step_request(StepRequest request, bool record_steps) {
  if (request == StepRequest::event) return apply_discrete_event(false, record_steps);
  result_.status = RunStatus::terminated_by_event;
  result_.message = "terminated by the model after the step to t = " + std::to_string(t_);
  return false;
}

bool Run::segment(double t_b, bool record_steps) {
  const AdvanceSettings advance_settings{.max_step = settings_.stepper.max_step,
                                         .time_tolerance = t_eps_};
  // A run that looks at an accepted step only through the model's after_step (no events to
  // locate, no step observer, nothing recorded per step: x_end only) and has no input signal
  // (the run's own context is then the one of every time, u being 0 throughout, as make_rhs
  // relies on) pays one test per step for all the rest.
  const bool lean = !locator_ && !settings_.on_step && settings_.output_times.empty() &&
                    !(record_steps && records_steps()) && !settings_.input;
  while (t_b - t_ > t_eps_) {
    if (next_time_event_ - t_ <= t_eps_) {  // a scheduled time event is due
      if (!apply_discrete_event(true, record_steps)) return false;
      continue;
    }
    if (next_jump_ - t_ <= t_eps_) {  // the run's u jumps: the method starts afresh after it
      t_ = std::max(t_, next_jump_);
      next_jump_ = settings_.input->next_jump(next_jump_);
      if (record_steps && records_steps()) record_after_jump();
      restart();
      if (!fixed_) h_ = std::min(h_, stepper_->initial_step(system_, t_, x_, t_b));
      continue;
    }
    // Steps end on a time event and on a jump of u; every event ends the advance (the
    // fixed-step grid restarts there). Up to one, inputs are read from the left.
    // A jump or time event on t_b itself (tf) counts too: x(t_b) is the integral up to t_b,
    // so no stage of the last step may read the value after the jump.
    const double t_stop = std::min({t_b, next_time_event_, next_jump_});
    context_.input_limit = std::min(next_time_event_, next_jump_) - t_stop <= t_eps_
                               ? std::nextafter(t_stop, -std::numeric_limits<double>::infinity())
                               : std::numeric_limits<double>::infinity();
    bool go_on = true;
    // Two observers rather than one that tests lean: the lean one is then a virtual call and a
    // test, without the register saves the full one's body needs (issue 19: the Simulator's
    // cost over its stepper).
    if (lean) {
      advance(*stepper_, system_, t_, x_, t_stop, h_, x_new_, advance_settings,
              [&](double /*t_old*/, double /*t*/, const Vector& /*x*/) {
                return after_step(model_.after_step(t_, x_, context_), record_steps, go_on);
              });
    } else {
      advance(*stepper_, system_, t_, x_, t_stop, h_, x_new_, advance_settings,
              [&](double t_old, double /*t*/, const Vector& /*x*/) {
                return accepted_step(t_old, t_b, record_steps, go_on);
              });
    }
    context_.input_limit = std::numeric_limits<double>::infinity();
    if (!go_on) return false;
  }
  t_ = t_b;
  if (next_jump_ - t_ <= t_eps_ && record_steps && records_steps()) record_after_jump();
  return true;
}

Observed Run::accepted_step(double t_old, double t_b, bool record_steps, bool& go_on) {
  if (locator_ && locator_->search(*stepper_, t_old, t_, x_, context_, input_at_)) {
    const double t_event = locator_->time();
    if (settings_.on_step) settings_.on_step(t_old, t_event, *stepper_);
    x_event_ = locator_->state();  // own buffer: emit_outputs interpolates into x_out_
    emit_outputs(t_event, x_event_);
    if (record_steps && records_steps()) record(t_event, x_event_);
    // The step ends at the event: the model completes it there, then sees the event.
    if (model_.after_step(t_event, x_event_, local_context(t_event)) == StepRequest::terminate) {
      t_ = t_event;
      x_ = x_event_;
      result_.status = RunStatus::terminated_by_event;
      result_.message = "terminated by the model after the step to t = " + std::to_string(t_);
      go_on = false;
      return Observed::stop;
    }
    const int mode_before = context_.mode;
    go_on = apply_events(t_event, x_event_);
    if (record_steps && records_steps() && (x_ != x_event_ || context_.mode != mode_before)) {
      record(t_, x_);  // the state after the action, at the same time
    }
    if (!go_on) return Observed::stop;
    restart();
    // A restart sits on the switching surface; a step sized for the old regime could
    // jump over a crossing right next to it (the bouncing ball's next, shorter flight),
    // so the first step is estimated afresh, as on a fresh start.
    if (!fixed_) h_ = std::min(h_, stepper_->initial_step(system_, t_, x_, t_b));
    return Observed::stop;
  }
  if (settings_.on_step) settings_.on_step(t_old, t_, *stepper_);
  emit_outputs(t_, x_);
  if (record_steps && records_steps()) record(t_, x_);
  // Without an input signal the run's own context is the one of every time: no copy.
  const StepRequest request = settings_.input ? model_.after_step(t_, x_, local_context(t_))
                                              : model_.after_step(t_, x_, context_);
  return after_step(request, record_steps, go_on);
}

SimulatorResult Run::execute() {
  t_ = settings_.t0;
  // Dense output is interpolated into x_out_ only at output_times (x_event_ is assigned
  // whole where it is used).
  if (!settings_.output_times.empty()) x_out_.resize(x_.size());
  context_.mode = model_.initial_mode(t_, x_, local_context(t_));
  next_time_event_ = model_.next_time_event(t_, local_context(t_));
  if (records_steps()) {
    record(t_, x_);
  } else {
    emit_outputs(t_, x_);
  }

  bool completed = true;
  if (settings_.sample_time > 0.0) {
    // Alg 6: the outer loop over sampling instants (period T), inputs held over each interval.
    const double period = settings_.sample_time;
    h_ = fixed_ ? period / static_cast<double>(detail::multiscale_substeps(period, settings_.h))
                : settings_.h;
    const long intervals = detail::sampling_intervals(settings_.t0, settings_.tf, period);
    holding_ = true;
    for (long k = 0; k < intervals && completed; ++k) {
      const double t_k = settings_.t0 + static_cast<double>(k) * period;
      holding_ = false;
      held_ = InputSample{.value = input(t_k).value, .derivative = 0.0};
      holding_ = true;
      context_.sampled_at = t_k;  // the model's own input signals are held there too
      const double t_end = detail::sampling_interval_end(settings_.t0, settings_.tf, period, k);
      restart();  // the held input jumps at t_k: FSAL and dense output restart
      if (!fixed_ && !(h_ > 0.0)) h_ = stepper_->initial_step(system_, t_, x_, t_end);
      completed = segment(t_end, false);
      // Sampling instants, plus the end point of a run an event stopped between them.
      if (records_steps()) record(t_, x_);
    }
    if (completed) completed = time_event_at_end(false);
  } else {
    if (settings_.input) next_jump_ = settings_.input->next_jump(t_);
    restart();
    h_ = settings_.h > 0.0 ? settings_.h : stepper_->initial_step(system_, t_, x_, settings_.tf);
    completed = segment(settings_.tf, true);
    if (completed) completed = time_event_at_end(true);
  }

  result_.t_end = t_;
  result_.x_end = std::move(x_);  // the run ends here
  result_.mode_end = context_.mode;
  result_.terminated_by_event = !completed;
  auto& stats = result_.statistics;
  stats.rhs_evaluations = system_.rhs_evaluations();
  stats.jacobian_evaluations = system_.jacobian_evaluations();
  stats.steps = stepper_->statistics().accepted_steps;
  stats.rejected_steps = stepper_->statistics().rejected_steps;
  stats.lu_factorizations = stepper_->statistics().lu_factorizations;
  stats.event_evaluations = locator_ ? locator_->evaluations() : 0;
  return std::move(result_);
}

// "[1, nan]": values as a message shows them.
std::string numbers_text(std::span<const double> values) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < values.size(); ++i) out << (i > 0 ? ", " : "") << values[i];
  out << ']';
  return out.str();
}

// Why a failed run could not start: a state or a right-hand side that is not finite at t0
// makes every error estimate NaN, which the step control counts as a failed test and reports
// as a step size underflow, as if the problem were stiff. Nothing when both are finite.
std::optional<std::string> non_finite_start(const Model& model, const SimulatorSettings& settings,
                                            const std::vector<double>& parameters,
                                            const Vector& x0) {
  std::ostringstream at;
  at << "at t = " << settings.t0;
  if (!x0.allFinite()) {
    return "the initial state is not finite " + at.str() +
           " (x0 = " + numbers_text({x0.data(), static_cast<std::size_t>(x0.size())}) + ")";
  }
  Context context;
  context.p = parameters;
  if (settings.input) context.u = settings.input->at(settings.t0);
  context.mode = model.initial_mode(settings.t0, x0, context);
  Vector f(x0.size());
  model.rhs(settings.t0, x0, context, f);
  if (f.allFinite()) return std::nullopt;
  std::ostringstream p;
  const auto& specs = model.info().parameters;
  for (std::size_t i = 0; i < parameters.size() && i < specs.size(); ++i) {
    if (!std::isfinite(parameters[i])) {
      p << (p.tellp() > 0 ? ", " : "") << specs[i].name << " = " << parameters[i];
    }
  }
  return "the right-hand side is not finite " + at.str() +
         " (x0 = " + numbers_text({x0.data(), static_cast<std::size_t>(x0.size())}) +
         (p.tellp() > 0 ? ", p: " + p.str() : std::string(", every parameter finite")) +
         (settings.input ? ", u = " + numbers_text({&context.u.value, 1}) : std::string()) +
         "): f = " + numbers_text({f.data(), static_cast<std::size_t>(f.size())});
}

}  // namespace

Simulator::Simulator(const Model& model, SimulatorSettings settings)
    : model_(&model), settings_(std::move(settings)), parameters_(model.default_parameters()) {
  for (const auto& [name, value] : settings_.parameters) {
    parameters_[model.parameter_index(name)] = value;
  }
  if (!(settings_.tf > settings_.t0)) {
    throw std::invalid_argument("simulator: tf must be greater than t0");
  }
  // The method's one look-up: its runs and the fit check take what it found.
  const MethodInfo& info = method_info(settings_.method);
  fixed_step_ = info.control == StepControl::fixed;
  if (auto misfit = method_misfit(info, model, parameters_)) {
    throw std::invalid_argument("simulator: " + *misfit);
  }
  const double max_step = settings_.stepper.max_step;
  if (!(max_step >= 0.0) || !std::isfinite(max_step)) {
    std::ostringstream message;
    message << "simulator: max_step must be a finite number >= 0 (0: no bound), not " << max_step;
    throw std::invalid_argument(message.str());
  }
  if (fixed_step_ && max_step > 0.0) {
    // A fixed-step method takes every step h: a bound on the step would be silently ignored.
    throw std::invalid_argument(
        "simulator: max_step bounds the steps of adaptive methods; '" + settings_.method +
        "' is a fixed-step method and steps by h: " + "set h instead of max_step");
  }
  if (settings_.sample_time < 0.0 || !std::isfinite(settings_.sample_time)) {
    throw std::invalid_argument("simulator: sample_time must be >= 0 (0: no multiscale grid)");
  }
  // A step longer than the run cannot be taken inside it (h from a logspace written with
  // values, 1e-4 instead of the exponent -4, is 10^1e-4 = 1.0002).
  const double span = settings_.tf - settings_.t0;
  if (fixed_step_ && settings_.h > span + time_resolution(settings_.t0, settings_.tf)) {
    std::ostringstream message;
    message << "simulator: h = " << settings_.h << " is larger than the horizon tf - t0 = " << span
            << ": not one step of it fits in the run";
    throw std::invalid_argument(message.str());
  }
  if (fixed_step_ && !(settings_.h > 0.0)) {
    // Lecture Sec 3.5: without further constraints the simplest choice is h = T.
    if (settings_.sample_time > 0.0) {
      settings_.h = settings_.sample_time;
    } else {
      throw std::invalid_argument("simulator: fixed-step method '" + settings_.method +
                                  "' needs a step size h > 0");
    }
  }
  // A sampling time, or a fixed step, below the run's time resolution cannot advance t. The run
  // would never end, or its count of sampling intervals would overflow and it would stop at once
  // with a wrong result.
  const double resolution = time_resolution(settings_.t0, settings_.tf);
  const auto require_resolved = [&](double step, const char* what) {
    if (step > 0.0 && !(step > resolution)) {
      std::ostringstream message;
      message << "simulator: " << what << " = " << step
              << " is below the time resolution of the run (64 eps max(|t0|, |tf|) = " << resolution
              << "): t + " << what << " cannot be told from t";
      throw std::invalid_argument(message.str());
    }
  };
  require_resolved(settings_.sample_time, "sample_time");
  if (fixed_step_) require_resolved(settings_.h, "h");
  require_resolved(max_step, "max_step");  // else every step would be a "step size underflow"
  // The model's own sampling instants (a diagram's holds) are time events: a period the run
  // cannot resolve never advances t, and one whose instants alone put zeno_events events into
  // the Zeno guard's window stops the run early with whatever the state was then.
  for (const auto& [name, period] : model.sample_periods(parameters_)) {
    if (period > 0.0 && !(period > resolution)) {
      std::ostringstream message;
      message << "simulator: " << name << " = " << period
              << " is below the time resolution of the run (64 eps max(|t0|, |tf|) = " << resolution
              << "): t + T cannot be told from t";
      throw std::invalid_argument(message.str());
    }
    const int n = settings_.events.zeno_events;
    const double window = settings_.events.zeno_window * std::max(1.0, settings_.tf - settings_.t0);
    if (period > 0.0 && n > 1 && static_cast<double>(n - 1) * period <= window &&
        static_cast<double>(n - 1) * period < settings_.tf - settings_.t0) {
      std::ostringstream message;
      message << "simulator: " << name << " = " << period << " puts " << n
              << " sampling instants into the Zeno guard's window of " << window
              << " s: the run would stop at its start; a period above " << window / (n - 1)
              << " s can be run";
      throw std::invalid_argument(message.str());
    }
  }
  if (settings_.sample_time > 0.0 && fixed_step_) {
    (void)detail::multiscale_substeps(settings_.sample_time, settings_.h);  // throws early
  }
  if (settings_.x0.size() != 0 && settings_.x0.size() != model.state_dimension()) {
    throw std::invalid_argument("simulator: x0 has " + std::to_string(settings_.x0.size()) +
                                " entries, model '" + model.info().name + "' has " +
                                std::to_string(model.state_dimension()) + " states");
  }
  const auto& times = settings_.output_times;
  const double slack = 64.0 * kEps * std::max(std::abs(settings_.t0), std::abs(settings_.tf));
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (!(times[i] >= settings_.t0 - slack && times[i] <= settings_.tf + slack) ||
        (i > 0 && times[i] < times[i - 1])) {
      throw std::invalid_argument(
          "simulator: output_times must be non-decreasing and within [t0, tf]");
    }
  }
  if (settings_.events.time_tolerance <= 0.0 || settings_.events.interior_samples < 0) {
    throw std::invalid_argument(
        "simulator: event time_tolerance must be > 0 and interior_samples >= 0");
  }
}

Vector Simulator::initial_state() const {
  if (settings_.x0.size() != 0) return settings_.x0;
  Context context;
  context.p = parameters_;
  if (settings_.input) context.u = settings_.input->at(settings_.t0);
  return model_->initial_state(settings_.t0, context);
}

SimulatorResult Simulator::run() const {
  try {
    Run run(*model_, settings_, parameters_, initial_state(), fixed_step_);
    return run.execute();
  } catch (const std::runtime_error& e) {
    // Diagnosed only when a run failed, so a run that works pays nothing for it.
    std::optional<std::string> why;
    try {
      why = non_finite_start(*model_, settings_, parameters_, initial_state());
    } catch (const std::exception&) {
      why.reset();  // the model throws at t0 itself: the run's own error says more
    }
    if (why) {
      throw std::runtime_error("simulator: " + *why + "; the solver reported: " + e.what());
    }
    throw;
  }
}

}  // namespace simverify::simulation
