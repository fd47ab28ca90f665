#pragma once
// Simulating backwards in time (ARGESIM C7 task C): a boundary value problem "which initial
// state reaches this target?" solved by starting at the target and integrating in reversed
// time s = t_target - t, where dx/ds = -f(x). A target event records when the reversed run
// passes the initial condition's surface.
#include <simverify/simulation/model.hpp>

#include <optional>

namespace simverify::simulation::analysis {

// dx/ds = -f(t_ref - s, x): the model run backwards. Event functions are kept as they are:
// valid for models whose event actions depend on the side of a switching surface rather
// than on the direction of travel in time (the constrained pendulum: the active length is
// set by the side of the pin). Outputs and parameters are the inner model's.
class TimeReversedModel final : public Model {
 public:
  explicit TimeReversedModel(const Model& inner, double t_ref = 0.0);

  [[nodiscard]] const ModelInfo& info() const override { return info_; }
  void rhs(double s, const Vector& x, const Context& context, Vector& dxds) const override;
  void output(double s, const Vector& x, const Context& context, Vector& y) const override;
  [[nodiscard]] bool has_jacobian() const override { return inner_->has_jacobian(); }
  void jacobian(double s, const Vector& x, const Context& context, Matrix& dfdx) const override;
  double event_value(std::size_t index, double s, const Vector& x,
                     const Context& context) const override;
  EventAction on_event(std::size_t index, double s, Vector& x, Context& context) const override;
  [[nodiscard]] int initial_mode(double s0, const Vector& x0,
                                 const Context& context) const override;

 private:
  const Model* inner_;
  double t_ref_;
  ModelInfo info_;
};

// The inner model with one more event: state `state` crossing `level` in `direction`, with
// no action (or stopping the run when `terminal`). Its index is the inner model's event
// count; its name is "target".
class TargetEventModel final : public Model {
 public:
  TargetEventModel(const Model& inner, std::size_t state, double level, EventDirection direction,
                   bool terminal);

  [[nodiscard]] const ModelInfo& info() const override { return info_; }
  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  void output(double t, const Vector& x, const Context& context, Vector& y) const override;
  [[nodiscard]] bool has_jacobian() const override { return inner_->has_jacobian(); }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
  double event_value(std::size_t index, double t, const Vector& x,
                     const Context& context) const override;
  EventAction on_event(std::size_t index, double t, Vector& x, Context& context) const override;
  [[nodiscard]] int initial_mode(double t0, const Vector& x0,
                                 const Context& context) const override;
  [[nodiscard]] std::size_t target_index() const { return target_; }

 private:
  const Model* inner_;
  std::size_t state_;
  double level_;
  std::size_t target_;
  ModelInfo info_;
};

}  // namespace simverify::simulation::analysis
