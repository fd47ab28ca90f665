// Model exchange (model_exchange.hpp): the importer's side of FMI 2.0 3.2.1 / FMI 3.0 3.2.1,
// with simverify's simulator in the role of the integrator.
#include <simverify/fmu/model_exchange.hpp>
#include <simverify/simulation/fixed_size_stepper.hpp>

#include "input_binding.hpp"
#include "instance.hpp"

#include <algorithm>
#include <limits>

namespace simverify::fmu {
namespace {

using simulation::Context;
using simulation::EventAction;
using simulation::Vector;

// An FMU whose event iteration does not settle in this many rounds is broken (the standard
// sets no bound; real models settle in a handful).
constexpr int kMaxEventIterations = 1000;

constexpr double kNever = std::numeric_limits<double>::infinity();

std::optional<double> run_input(const Context& context) {
  return context.u.value;
}

}  // namespace

ModelExchangeModel::ModelExchangeModel(std::shared_ptr<const Fmu> fmu, const NamedInputs& inputs,
                                       LogObserver observer)
    : fmu_(std::move(fmu)), observer_(std::move(observer)) {
  const ModelDescription& d = fmu_->description();
  const InterfaceCapabilities* me = d.capabilities(Interface::model_exchange);
  if (me == nullptr) {
    throw FmuError("FMU '" + fmu_->path().filename().string() +
                   "' has no model exchange interface (it offers co_simulation)");
  }
  needs_completed_step_ = me->needs_completed_integrator_step;
  info_.name = d.model_name.empty() ? me->model_identifier : d.model_name;
  info_.description = d.description;
  info_.states = d.names(d.states);
  info_.outputs = d.names(d.outputs);
  info_.state_units = d.units(d.states);
  info_.output_units = d.units(d.outputs);
  for (const std::size_t p : d.parameters) {
    const Variable& v = d.variables[p];
    info_.parameters.push_back({v.name, v.start.value_or(0.0), v.unit, v.description});
  }
  for (const auto& name : d.event_indicators) {
    info_.events.push_back({name, simulation::EventDirection::either, false});
  }
  info_.default_x0 = Vector::Zero(static_cast<Eigen::Index>(d.states.size()));
  for (std::size_t i = 0; i < d.states.size(); ++i) {
    info_.default_x0[static_cast<Eigen::Index>(i)] = d.variables[d.states[i]].start.value_or(0.0);
  }
  const DefaultExperiment& experiment = d.default_experiment;
  if (experiment.stop_time)
    info_.default_tf = *experiment.stop_time - experiment.start_time.value_or(0.0);
  states_ = d.value_references(d.states);
  derivatives_ = d.value_references(d.derivatives);
  outputs_ = d.value_references(d.outputs);
  parameters_ = d.value_references(d.parameters);
  directional_ = me->provides_directional_derivatives && !states_.empty();
  inputs_ = std::make_unique<detail::InputBinding>(d, inputs);
  has_inputs_ = !inputs_->empty();
  indicators_.assign(d.event_indicators.size(), 0.0);
}

ModelExchangeModel::~ModelExchangeModel() = default;

void ModelExchangeModel::start(double t0, const Context& context) const {
  direct_states_ = -1;
  instance_.reset();  // the previous run's instance goes first (one per process for some FMUs)
  instance_ = detail::instantiate(fmu_, Interface::model_exchange, observer_);
  if (!has_inputs_ && !states_.empty()) direct_states_ = static_cast<Eigen::Index>(states_.size());
  indicators_valid_ = handled_valid_ = terminated_ = false;
  inputs_->reset();
  instance_->set_reals(parameters_, context.p);
  instance_->enter_initialization(t0, std::nullopt, std::nullopt);
  inputs_->values_at(t0, run_input(context), input_references_, input_values_);
  instance_->set_reals(input_references_, input_values_);
  instance_->exit_initialization();
  // After initialization the FMU is in event mode (FMI 2.0 3.2.3, FMI 3.0 3.2.1).
  Vector x(static_cast<Eigen::Index>(states_.size()));
  if (handle_event(t0, x, false) == EventAction::terminate) terminated_ = true;
  fresh_ = true;
  fresh_t0_ = t0;
  fresh_parameters_.assign(context.p.begin(), context.p.end());
  fresh_input_ = context.u.value;
}

void ModelExchangeModel::prepare(double t, const Vector& x, const Context& context) const {
  if (!instance_) start(t, context);  // a caller that skipped initial_mode
  fresh_ = false;
  instance_->set_time(t);
  if (has_inputs_) {
    // Under a sampling grid the inputs are read at the interval's sampling instant, like the
    // run's u (Context::sampled_at).
    inputs_->values_at(context.input_time(t), run_input(context), input_references_, input_values_);
    instance_->set_reals(input_references_, input_values_);
  }
  instance_->set_states({x.data(), static_cast<std::size_t>(x.size())});
}

EventAction ModelExchangeModel::handle_event(double t, Vector& x, bool enter) const {
  if (enter) instance_->enter_event_mode();
  detail::EventUpdate update;
  bool values_changed = false;
  for (int round = 0;; ++round) {
    if (round == kMaxEventIterations) {
      throw FmuError("FMU '" + fmu_->path().filename().string() +
                     "': the event iteration at t = " + std::to_string(t) +
                     " did not settle after " + std::to_string(kMaxEventIterations) + " rounds");
    }
    update = instance_->update_discrete_states();
    values_changed = values_changed || update.values_of_continuous_states_changed;
    if (update.terminate || !update.discrete_states_need_update) break;
  }
  indicators_valid_ = false;
  handled_event_ = t;
  handled_valid_ = true;
  if (update.terminate && !enter) {  // ended during initialization: still report its states
    x.resize(static_cast<Eigen::Index>(states_.size()));
    instance_->get_states({x.data(), static_cast<std::size_t>(x.size())});
  }
  if (update.terminate) {
    terminated_ = true;
    next_event_ = t;
    return EventAction::terminate;
  }
  instance_->enter_continuous_time_mode();
  next_event_ = update.next_event_time.value_or(kNever);
  if (values_changed || !enter) {
    x.resize(static_cast<Eigen::Index>(states_.size()));
    instance_->get_states({x.data(), static_cast<std::size_t>(x.size())});
  }
  return EventAction::resume;
}

void ModelExchangeModel::rhs(double t, const Vector& x, const Context& context,
                             Vector& dxdt) const {
  // What an FMU adds to every f (bench/fmu_bench.cpp): these checks and one virtual call for
  // the three FMI calls; the rest is out of line so that this path needs no stack frame.
  if (x.size() != direct_states_ || dxdt.size() != direct_states_) [[unlikely]] {
    rhs_prepared(t, x, context, dxdt);
    return;
  }
  fresh_ = false;
  instance_->derivatives(t, x.data(), dxdt.data());
}

std::unique_ptr<simulation::Stepper> ModelExchangeModel::fixed_size_stepper(
    const std::string& method, const Context& /*context*/) const {
  // The FMU holds the parameters; inputs would be set at every f (the generic path does).
  if (has_inputs_) return nullptr;
  const detail::PlainDerivatives f =
      detail::plain_derivatives(fmu_->description().version, states_.size());
  if (f == nullptr) return nullptr;
  // f reaches the run's instance through instance_, which every run replaces; the Simulator
  // makes the stepper before the run's initial_mode and evaluates f only after it (so no
  // fresh_ to clear).
  return simulation::make_fixed_size_stepper(method, static_cast<int>(states_.size()),
                                             {f, &instance_});
}

void ModelExchangeModel::rhs_prepared(double t, const Vector& x, const Context& context,
                                      Vector& dxdt) const {
  prepare(t, x, context);
  dxdt.resize(x.size());
  instance_->get_derivatives({dxdt.data(), static_cast<std::size_t>(dxdt.size())});
}

void ModelExchangeModel::output(double t, const Vector& x, const Context& context,
                                Vector& y) const {
  prepare(t, x, context);
  y.resize(static_cast<Eigen::Index>(outputs_.size()));
  instance_->get_reals(outputs_, {y.data(), static_cast<std::size_t>(y.size())});
}

bool ModelExchangeModel::has_jacobian() const {
  return directional_;
}

void ModelExchangeModel::jacobian(double t, const Vector& x, const Context& context,
                                  simulation::Matrix& dfdx) const {
  prepare(t, x, context);
  const std::size_t n = states_.size();
  dfdx.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  seed_.assign(n, 0.0);
  column_.resize(n);
  // Column j: the directional derivative of the derivatives along state j.
  for (std::size_t j = 0; j < n; ++j) {
    seed_[j] = 1.0;
    instance_->directional_derivative(derivatives_, states_, seed_, column_);
    seed_[j] = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      dfdx(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = column_[i];
    }
  }
}

double ModelExchangeModel::event_value(std::size_t index, double t, const Vector& x,
                                       const Context& context) const {
  // The locator asks for each indicator in turn at the same point: one FMU call for all.
  if (!indicators_valid_ || t != indicators_time_ || x.size() != indicators_state_.size() ||
      !std::equal(x.data(), x.data() + x.size(), indicators_state_.data())) {
    prepare(t, x, context);
    instance_->get_event_indicators(indicators_);
    indicators_time_ = t;
    indicators_state_ = x;
    indicators_valid_ = true;
  }
  return indicators_[index];
}

void ModelExchangeModel::event_values(double t, const Vector& x, const Context& context,
                                      std::span<double> g) const {
  // Straight from the FMU, and kept for event_value at the same point (the locator then
  // asks for single indicators only inside a bracket, at other points).
  prepare(t, x, context);
  instance_->get_event_indicators(indicators_);
  std::copy(indicators_.begin(), indicators_.end(), g.begin());
  indicators_time_ = t;
  indicators_state_ = x;
  indicators_valid_ = true;
}

EventAction ModelExchangeModel::on_event(std::size_t /*index*/, double t, Vector& x,
                                         Context& context) const {
  // Indicators firing together get one event iteration: it handles all of them.
  if (handled_valid_ && t == handled_event_)
    return terminated_ ? EventAction::terminate : EventAction::resume;
  prepare(t, x, context);
  return handle_event(t, x, true);
}

int ModelExchangeModel::initial_mode(double t0, const Vector& x0, const Context& context) const {
  const bool reusable = fresh_ && t0 == fresh_t0_ && context.u.value == fresh_input_ &&
                        std::equal(context.p.begin(), context.p.end(), fresh_parameters_.begin(),
                                   fresh_parameters_.end());
  if (!reusable) start(t0, context);
  fresh_ = false;
  // The run's x0 replaces the states the FMU initialized (a call only where they differ).
  instance_->set_states({x0.data(), static_cast<std::size_t>(x0.size())});
  handled_valid_ = false;
  return 0;
}

Vector ModelExchangeModel::initial_state(double t0, const Context& context) const {
  start(t0, context);
  const std::span<const double> x = instance_->states();
  return Eigen::Map<const Vector>(x.data(), static_cast<Eigen::Index>(x.size()));
}

double ModelExchangeModel::next_time_event(double t, const Context& /*context*/) const {
  return terminated_ ? t : next_event_;
}

EventAction ModelExchangeModel::on_time_event(double t, Vector& x, Context& context) const {
  if (terminated_) return EventAction::terminate;
  prepare(t, x, context);
  return handle_event(t, x, true);
}

simulation::StepRequest ModelExchangeModel::after_step(double t, const Vector& x,
                                                       const Context& context) const {
  // Every step asks: the common answer with no stack frame, the rest out of line.
  if (terminated_ || needs_completed_step_) [[unlikely]]
    return completed_step(t, x, context);
  return simulation::StepRequest::none;
}

simulation::StepRequest ModelExchangeModel::completed_step(double t, const Vector& x,
                                                           const Context& context) const {
  if (terminated_) return simulation::StepRequest::terminate;
  prepare(t, x, context);
  const detail::StepCompletion completion = instance_->completed_integrator_step();
  if (completion.terminate) {
    terminated_ = true;
    return simulation::StepRequest::terminate;
  }
  return completion.enter_event_mode ? simulation::StepRequest::event
                                     : simulation::StepRequest::none;
}

EventAction ModelExchangeModel::on_step_event(double t, Vector& x, Context& context) const {
  prepare(t, x, context);
  return handle_event(t, x, true);
}

}  // namespace simverify::fmu
