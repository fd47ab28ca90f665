#include <simverify/simulation/analysis/backward.hpp>

#include <stdexcept>

namespace simverify::simulation::analysis {

TimeReversedModel::TimeReversedModel(const Model& inner, double t_ref)
    : inner_(&inner), t_ref_(t_ref), info_(inner.info()) {
  info_.name = inner.info().name + "+reversed";
}

void TimeReversedModel::rhs(double s, const Vector& x, const Context& context, Vector& dxds) const {
  inner_->rhs(t_ref_ - s, x, context, dxds);
  dxds = -dxds;
}

void TimeReversedModel::output(double s, const Vector& x, const Context& context, Vector& y) const {
  inner_->output(t_ref_ - s, x, context, y);
}

void TimeReversedModel::jacobian(double s, const Vector& x, const Context& context,
                                 Matrix& dfdx) const {
  inner_->jacobian(t_ref_ - s, x, context, dfdx);
  dfdx = -dfdx;
}

double TimeReversedModel::event_value(std::size_t index, double s, const Vector& x,
                                      const Context& context) const {
  return inner_->event_value(index, t_ref_ - s, x, context);
}

EventAction TimeReversedModel::on_event(std::size_t index, double s, Vector& x,
                                        Context& context) const {
  return inner_->on_event(index, t_ref_ - s, x, context);
}

int TimeReversedModel::initial_mode(double s0, const Vector& x0, const Context& context) const {
  return inner_->initial_mode(t_ref_ - s0, x0, context);
}

TargetEventModel::TargetEventModel(const Model& inner, std::size_t state, double level,
                                   EventDirection direction, bool terminal)
    : inner_(&inner),
      state_(state),
      level_(level),
      target_(inner.info().events.size()),
      info_(inner.info()) {
  if (state >= inner.info().states.size()) {
    throw std::invalid_argument("target event: the model has no state " + std::to_string(state));
  }
  info_.events.push_back({"target", direction, terminal});
}

void TargetEventModel::rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const {
  inner_->rhs(t, x, context, dxdt);
}

void TargetEventModel::output(double t, const Vector& x, const Context& context, Vector& y) const {
  inner_->output(t, x, context, y);
}

void TargetEventModel::jacobian(double t, const Vector& x, const Context& context,
                                Matrix& dfdx) const {
  inner_->jacobian(t, x, context, dfdx);
}

double TargetEventModel::event_value(std::size_t index, double t, const Vector& x,
                                     const Context& context) const {
  if (index == target_) return x(static_cast<Eigen::Index>(state_)) - level_;
  return inner_->event_value(index, t, x, context);
}

EventAction TargetEventModel::on_event(std::size_t index, double t, Vector& x,
                                       Context& context) const {
  if (index == target_) {
    return info_.events[target_].terminal ? EventAction::terminate : EventAction::resume;
  }
  return inner_->on_event(index, t, x, context);
}

int TargetEventModel::initial_mode(double t0, const Vector& x0, const Context& context) const {
  return inner_->initial_mode(t0, x0, context);
}

}  // namespace simverify::simulation::analysis
