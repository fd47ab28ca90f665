#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace simverify::simulation {

Simulator::Simulator(const Model& model, SimulatorSettings settings)
    : model_(&model), settings_(std::move(settings)), parameters_(model.default_parameters()) {
  for (const auto& [name, value] : settings_.parameters) {
    parameters_[model.parameter_index(name)] = value;
  }
  if (!(settings_.tf > settings_.t0)) {
    throw std::invalid_argument("simulator: tf must be greater than t0");
  }
  const auto& info = method_info(settings_.method);
  if (info.control == StepControl::fixed && !(settings_.h > 0.0)) {
    throw std::invalid_argument("simulator: fixed-step method '" + settings_.method +
                                "' needs a step size h > 0");
  }
  if (settings_.x0.size() != 0 && settings_.x0.size() != model.state_dimension()) {
    throw std::invalid_argument("simulator: x0 has " + std::to_string(settings_.x0.size()) +
                                " entries, model '" + model.info().name + "' has " +
                                std::to_string(model.state_dimension()) + " states");
  }
}

Vector Simulator::initial_state() const {
  return settings_.x0.size() == 0 ? model_->info().default_x0 : settings_.x0;
}

SimulatorResult Simulator::run() const {
  SimulatorResult result;
  Context context{.p = parameters_, .u = {}, .mode = 0};
  const InputSignal* input = settings_.input.get();
  const Model& model = *model_;

  OdeSystem system(model.state_dimension(), [&](double t, const Vector& x, Vector& dxdt) {
    Context local = context;
    if (input != nullptr) local.u = input->at(t);
    model.rhs(t, x, local, dxdt);
  });

  auto stepper = make_stepper(settings_.method);
  double t = settings_.t0;
  Vector x = initial_state();
  Vector x_new(x.size());
  context.mode = model.initial_mode(t, x, context);
  stepper->initialize(system, t, x, settings_.stepper);
  if (settings_.record_trajectory) result.trajectory.append(t, x);

  const double span = settings_.tf - settings_.t0;
  const double max_step = settings_.stepper.max_step > 0.0 ? settings_.stepper.max_step : span;
  double h = settings_.h > 0.0 ? settings_.h : stepper->initial_step(system, t, x, settings_.tf);
  h = std::min(h, max_step);
  // Steps within this distance of tf finish the run (guards against a sliver step from
  // accumulated round-off in t = t0 + n h).
  const double t_eps = 64.0 * std::numeric_limits<double>::epsilon() * std::abs(settings_.tf);
  while (settings_.tf - t > t_eps) {
    const double step = std::min(h, settings_.tf - t);
    const StepAttempt attempt = stepper->attempt(system, t, x, step, x_new);
    if (!attempt.accepted) {
      ++result.statistics.rejected_steps;
      h = std::min(attempt.next_step, max_step);
      continue;
    }
    t += step;
    x.swap(x_new);
    ++result.statistics.steps;
    if (settings_.record_trajectory) result.trajectory.append(t, x);
    if (stepper->control() == StepControl::adaptive) h = std::min(attempt.next_step, max_step);
  }

  result.t_end = t;
  result.x_end = x;
  result.statistics.rhs_evaluations = system.rhs_evaluations();
  result.statistics.jacobian_evaluations = system.jacobian_evaluations();
  result.statistics.lu_factorizations = stepper->statistics().lu_factorizations;
  return result;
}

}  // namespace simverify::simulation
