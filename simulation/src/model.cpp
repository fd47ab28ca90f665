#include <simverify/simulation/model.hpp>

#include "detail/known_names.hpp"

#include <limits>
#include <stdexcept>

namespace simverify::simulation {

void Model::output(double /*t*/, const Vector& x, const Context& /*context*/, Vector& y) const {
  y = x;
}

void Model::acceleration(double /*t*/, const Vector& /*q*/, const Context& /*context*/,
                         Vector& /*qdd*/) const {
  throw std::logic_error("model '" + info().name + "' declares no second-order structure");
}

void Model::jacobian(double /*t*/, const Vector& /*x*/, const Context& /*context*/,
                     Matrix& /*dfdx*/) const {
  throw std::logic_error("model '" + info().name + "' has no analytic Jacobian");
}

void Model::exact_solution(double /*t*/, double /*t0*/, const Vector& /*x0*/,
                           const Context& /*context*/, Vector& /*x*/) const {
  throw std::logic_error("model '" + info().name + "' has no exact solution");
}

double Model::event_value(std::size_t /*index*/, double /*t*/, const Vector& /*x*/,
                          const Context& /*context*/) const {
  throw std::logic_error("model '" + info().name + "' declares no events");
}

void Model::event_values(double t, const Vector& x, const Context& context,
                         std::span<double> g) const {
  for (std::size_t i = 0; i < g.size(); ++i) g[i] = event_value(i, t, x, context);
}

EventAction Model::on_event(std::size_t /*index*/, double /*t*/, Vector& /*x*/,
                            Context& /*context*/) const {
  return EventAction::resume;
}

int Model::initial_mode(double /*t0*/, const Vector& /*x0*/, const Context& /*context*/) const {
  return 0;
}

Vector Model::initial_state(double /*t0*/, const Context& /*context*/) const {
  return info().default_x0;
}

double Model::next_time_event(double /*t*/, const Context& /*context*/) const {
  return std::numeric_limits<double>::infinity();
}

EventAction Model::on_time_event(double /*t*/, Vector& /*x*/, Context& /*context*/) const {
  return EventAction::resume;
}

std::vector<std::pair<std::string, double>> Model::sample_periods(
    std::span<const double> /*p*/) const {
  return {};
}

StepRequest Model::after_step(double /*t*/, const Vector& /*x*/, const Context& /*context*/) const {
  return StepRequest::none;
}

EventAction Model::on_step_event(double /*t*/, Vector& /*x*/, Context& /*context*/) const {
  return EventAction::resume;
}

std::size_t Model::parameter_index(const std::string& name) const {
  const auto& params = info().parameters;
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].name == name) return i;
  }
  std::vector<std::string> known;
  known.reserve(params.size());
  for (const auto& p : params) known.push_back(p.name);
  detail::throw_unknown("parameter of model '" + info().name + "'", name, known);
}

std::vector<double> Model::default_parameters() const {
  std::vector<double> values;
  for (const auto& p : info().parameters) values.push_back(p.default_value);
  return values;
}

}  // namespace simverify::simulation
