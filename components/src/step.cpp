// The `step` component (unit level): one step of a method from the exact solution at t0, so
// `local_error` measures the consistency order (Def 3.16): |x(t0 + h) - Psi(t0, x0, h)|
// falls like h^(p+1) for a method of order p.
#include "conditions.hpp"
#include "registration.hpp"

#include <simverify/simulation/method_registry.hpp>

#include <stdexcept>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Measurement;
using simulation::Vector;

Measurement step(const Condition& c) {
  const auto model = model_for(c);
  if (!model->has_exact_solution()) {
    throw std::invalid_argument("step needs a model with an exact solution; '" +
                                model->info().name + "' has none");
  }
  const auto settings = simulator_settings(c, *model);
  if (settings.input) throw std::invalid_argument("step takes no input u");
  if (!(settings.h > 0)) throw std::invalid_argument("step needs h > 0");

  // Parameters with overrides, the model bound to f(t, x) as the simulator binds it.
  std::vector<double> p = model->default_parameters();
  for (const auto& [name, value] : settings.parameters) p[model->parameter_index(name)] = value;
  const Vector x0 = settings.x0.size() != 0 ? settings.x0 : model->info().default_x0;
  simulation::Context context{.p = p, .u = {}, .mode = 0};
  context.mode = model->initial_mode(settings.t0, x0, context);
  const simulation::Model& m = *model;
  simulation::OdeSystem system(
      m.state_dimension(),
      [&](double t, const Vector& x, Vector& dxdt) { m.rhs(t, x, context, dxdt); },
      m.has_jacobian() ? simulation::OdeSystem::Jacobian(
                             [&](double t, const Vector& x, simulation::Matrix& dfdx) {
                               m.jacobian(t, x, context, dfdx);
                             })
                       : simulation::OdeSystem::Jacobian{});

  if (const auto& structure = m.info().second_order) {
    system.set_second_order(
        {structure->positions, structure->velocities,
         [&](double t, const Vector& q, Vector& qdd) { m.acceleration(t, q, context, qdd); }});
  }
  auto stepper = simulation::make_stepper(settings.method);
  stepper->initialize(system, settings.t0, x0, settings.stepper);
  Vector x1(x0.size());
  const simulation::StepAttempt attempt = stepper->step(system, settings.t0, x0, settings.h, x1);
  Vector exact(x0.size());
  m.exact_solution(settings.t0 + settings.h, settings.t0, x0, context, exact);

  Measurement out;
  out.set("local_error", (x1 - exact).lpNorm<Eigen::Infinity>());
  // Adaptive methods: the scaled embedded error estimate of this step (<= 1: accepted).
  out.set("error_estimate", attempt.error_norm);
  out.set("f_evals", static_cast<double>(system.rhs_evaluations()));
  return out;
}

}  // namespace

framework::Component step_component() {
  framework::Component c;
  c.info.name = "step";
  c.info.description = "one step of a method from the exact solution; measures local_error";
  c.info.axes = {"model", "variant", "method", "h", "rtol", "atol", "t0", "x0", "p.*", "nonlinear"};
  c.info.measures = {"local_error", "error_estimate", "f_evals"};
  c.evaluate = step;
  c.check_axis = check_simulation_axis;
  c.check_condition = simulation_point_check();
  c.hint_axis = simulation_axis_hint;
  return c;
}

}  // namespace simverify::components
