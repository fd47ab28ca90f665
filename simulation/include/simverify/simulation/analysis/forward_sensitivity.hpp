#pragma once
// Forward sensitivity equations (Def 4.21): for x' = f(t, x, u, p) the sensitivities
// S = dx/dp (n x m for m chosen parameters) obey S' = f_x S + f_p with S(t0) = 0.
//
// ForwardSensitivityModel wraps a model into one whose state is [x; vec(S)] (column-major,
// one column per parameter), so any simulator, method and event handling runs it unchanged.
// At an event the sensitivities jump (hybrid systems; e.g. Hiskens & Pai 2000): with the
// event function g(t, x, p), the reset x+ = R(x-, p) and the vector fields f- before and f+
// after it,
//   dtau/dp = -(g_x S- + g_p) / (g_x f- + g_t)
//   S+      = R_x S- + R_p + (R_x f- - f+) dtau/dp
// so sensitivities are continued across events (the pendulum's hit and release; g_p is what
// makes the hit time depend on the pin angle phi_pin, g = phi - phi_pin).
// f_x comes from the model's Jacobian when it has one; f_p, g_x, g_p, g_t, R_x and R_p by
// central differences. Where the model's mode follows from its state (a diagram's limited
// integrator, a switch) f jumps on the event surface and the located state lies past it: f-
// is f just back across the surface, f+ just beyond when the action resets nothing, and the
// quotients of f_x and f_p are one-sided on the mode's side of a jump or kink (docs/studies.md).
// The inner model's time events (a hold's samples) are passed on with S+ = R_x S- + R_p.
#include <simverify/simulation/model.hpp>
#include <simverify/simulation/trajectory.hpp>

#include <span>

#include <string>
#include <utility>
#include <vector>

namespace simverify::simulation::analysis {

class ForwardSensitivityModel final : public Model {
 public:
  // `inner` must outlive this model. Throws for unknown parameter names.
  ForwardSensitivityModel(const Model& inner, const std::vector<std::string>& parameters);

  [[nodiscard]] const ModelInfo& info() const override { return info_; }
  void rhs(double t, const Vector& state, const Context& context, Vector& dstate) const override;
  double event_value(std::size_t index, double t, const Vector& state,
                     const Context& context) const override;
  EventAction on_event(std::size_t index, double t, Vector& state, Context& context) const override;
  [[nodiscard]] int initial_mode(double t0, const Vector& state,
                                 const Context& context) const override;
  // The inner model's time events (a diagram's sampling instants and signal jumps), so a
  // hold samples in the sensitivity run as in the plain one. Throws when a chosen parameter
  // moves the next one (a hold's period T): its sensitivity is not continued.
  [[nodiscard]] double next_time_event(double t, const Context& context) const override;
  // The inner action; the sensitivities jump by S+ = R_x S- + R_p (the instant does not
  // depend on the parameters).
  EventAction on_time_event(double t, Vector& state, Context& context) const override;
  [[nodiscard]] std::vector<std::pair<std::string, double>> sample_periods(
      std::span<const double> p) const override {
    return inner_->sample_periods(p);
  }

  // The run's initial state when the settings give none: [x0(p); dx0/dp], the inner model's
  // own initial state (a diagram's integrator started at a parameter, an FMU's
  // initialization) and its derivatives with respect to the parameters.
  [[nodiscard]] Vector initial_state(double t0, const Context& context) const override;
  // [x0; 0]: the augmented state for an x0 given outright (it does not depend on p).
  [[nodiscard]] Vector augmented_state(const Vector& x0) const;
  // dx_i/dp_j from an augmented state.
  [[nodiscard]] Matrix sensitivities(const Vector& state) const;

  // d tau/dp_j of an event a run of this model recorded (its state is the augmented state
  // before the action, its mode the mode before). `p` and `u` are the parameters and input
  // at the event: the run's parameters unless an earlier event changed them.
  [[nodiscard]] Eigen::RowVectorXd event_time_sensitivity(const EventRecord& event,
                                                          std::span<const double> p,
                                                          InputSample u = {}) const;

 private:
  // g_x, g_t and g_p of event function `index` at (t, x).
  struct EventGradient {
    Vector gx;
    double gt = 0.0;
    Eigen::RowVectorXd gp;
  };
  [[nodiscard]] EventGradient event_gradient(std::size_t index, double t, const Vector& x,
                                             const Context& context) const;
  // The sign of g before the located crossing (from the event's direction, else from g).
  [[nodiscard]] int side_before(std::size_t index, double t, const Vector& x,
                                const EventGradient& g, const Context& context) const;
  // f on the side `side` (the sign of g; 0: at x) of the event's surface.
  [[nodiscard]] Vector field_beside(std::size_t index, double t, const Vector& x,
                                    const EventGradient& g, int side, const Context& context) const;
  [[nodiscard]] Eigen::RowVectorXd event_time_derivative(const EventGradient& g, const Matrix& s,
                                                         const Vector& f_minus) const;
  void inner_rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const;
  // f_x at (t, x) with f = f(t, x), by mode-respecting differences when the model has no
  // Jacobian.
  void state_jacobian(double t, const Vector& x, const Vector& f, const Context& context,
                      Matrix& fx) const;

  const Model* inner_;
  std::vector<std::size_t> parameters_;  // indices into the inner model's parameters
  Eigen::Index n_ = 0;
  ModelInfo info_;
};

}  // namespace simverify::simulation::analysis
