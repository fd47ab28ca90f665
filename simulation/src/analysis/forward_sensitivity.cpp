#include <simverify/simulation/analysis/forward_sensitivity.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace simverify::simulation::analysis {
namespace {

// Central-difference step for a quantity of magnitude `scale` (truncation ~ s^2 balanced
// against round-off ~ eps / s).
double fd_step(double scale) {
  return std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(scale), 1.0);
}

}  // namespace

ForwardSensitivityModel::ForwardSensitivityModel(const Model& inner,
                                                 const std::vector<std::string>& parameters)
    : inner_(&inner), n_(inner.state_dimension()) {
  if (parameters.empty()) throw std::invalid_argument("sensitivity: name at least one parameter");
  const ModelInfo& base = inner.info();
  info_ = base;
  info_.name = base.name + "+sensitivity";
  for (const auto& name : parameters) {
    parameters_.push_back(inner.parameter_index(name));
    for (const auto& state : base.states) info_.states.push_back("d" + state + "/d" + name);
  }
  info_.outputs = info_.states;
  info_.default_x0 = augmented_state(base.default_x0);
}

Vector ForwardSensitivityModel::augmented_state(const Vector& x0) const {
  Vector state = Vector::Zero(n_ * static_cast<Eigen::Index>(1 + parameters_.size()));
  state.head(n_) = x0;
  return state;
}

Vector ForwardSensitivityModel::initial_state(double t0, const Context& context) const {
  // s_j(0) = dx0/dp_j by central differences: exact up to rounding for the affine x0(p) of
  // diagrams. The nominal state comes last, so an inner model that initializes itself here
  // (an FMU) ends in its nominal state.
  std::vector<double> p(context.p.begin(), context.p.end());
  Context perturbed = context;
  perturbed.p = p;
  perturbed.p_mutable = {};
  Vector state = Vector::Zero(n_ * static_cast<Eigen::Index>(1 + parameters_.size()));
  for (std::size_t j = 0; j < parameters_.size(); ++j) {
    double& pj = p[parameters_[j]];
    const double nominal = pj;
    const double h = fd_step(nominal);
    pj = nominal + h;
    const Vector up = inner_->initial_state(t0, perturbed);
    pj = nominal - h;
    const Vector down = inner_->initial_state(t0, perturbed);
    pj = nominal;
    state.segment(n_ * static_cast<Eigen::Index>(1 + j), n_) = (up - down) / (2.0 * h);
  }
  state.head(n_) = inner_->initial_state(t0, context);
  return state;
}

Matrix ForwardSensitivityModel::sensitivities(const Vector& state) const {
  return Eigen::Map<const Matrix>(state.data() + n_, n_,
                                  static_cast<Eigen::Index>(parameters_.size()));
}

void ForwardSensitivityModel::inner_rhs(double t, const Vector& x, const Context& context,
                                        Vector& dxdt) const {
  inner_->rhs(t, x, context, dxdt);
}

void ForwardSensitivityModel::state_jacobian(double t, const Vector& x, const Context& context,
                                             Matrix& fx) const {
  if (inner_->has_jacobian()) {
    inner_->jacobian(t, x, context, fx);
    return;
  }
  fx.resize(n_, n_);
  Vector xp = x, fplus(n_), fminus(n_);
  for (Eigen::Index j = 0; j < n_; ++j) {
    const double s = fd_step(x(j));
    xp(j) = x(j) + s;
    inner_rhs(t, xp, context, fplus);
    xp(j) = x(j) - s;
    inner_rhs(t, xp, context, fminus);
    xp(j) = x(j);
    fx.col(j) = (fplus - fminus) / (2 * s);
  }
}

void ForwardSensitivityModel::rhs(double t, const Vector& state, const Context& context,
                                  Vector& dstate) const {
  const Vector x = state.head(n_);
  Vector f(n_);
  inner_rhs(t, x, context, f);
  dstate.resize(state.size());
  dstate.head(n_) = f;

  Matrix fx;
  state_jacobian(t, x, context, fx);
  // f_p by central differences on a per-thread copy of the parameters (the model is shared
  // read-only between concurrent runs).
  thread_local std::vector<double> p;
  p.assign(context.p.begin(), context.p.end());
  Context perturbed = context;
  perturbed.p = p;
  perturbed.p_mutable = {};
  Vector fplus(n_), fminus(n_);
  const auto m = static_cast<Eigen::Index>(parameters_.size());
  const Eigen::Map<const Matrix> s(state.data() + n_, n_, m);
  for (Eigen::Index j = 0; j < m; ++j) {
    const std::size_t k = parameters_[static_cast<std::size_t>(j)];
    const double h = fd_step(p[k]);
    const double original = p[k];
    p[k] = original + h;
    inner_rhs(t, x, perturbed, fplus);
    p[k] = original - h;
    inner_rhs(t, x, perturbed, fminus);
    p[k] = original;
    dstate.segment(n_ * (1 + j), n_) = fx * s.col(j) + (fplus - fminus) / (2 * h);
  }
}

double ForwardSensitivityModel::event_value(std::size_t index, double t, const Vector& state,
                                            const Context& context) const {
  return inner_->event_value(index, t, state.head(n_), context);
}

int ForwardSensitivityModel::initial_mode(double t0, const Vector& state,
                                          const Context& context) const {
  return inner_->initial_mode(t0, state.head(n_), context);
}

Eigen::RowVectorXd ForwardSensitivityModel::event_time_derivative(std::size_t index, double t,
                                                                  const Vector& x, const Matrix& s,
                                                                  const Vector& f_minus,
                                                                  const Context& context) const {
  // Gradient g_x, time derivative g_t and parameter derivatives g_p of the event function
  // (central differences).
  Vector gx(n_);
  Vector xp = x;
  for (Eigen::Index i = 0; i < n_; ++i) {
    const double h = fd_step(x(i));
    xp(i) = x(i) + h;
    const double gp = inner_->event_value(index, t, xp, context);
    xp(i) = x(i) - h;
    const double gm = inner_->event_value(index, t, xp, context);
    xp(i) = x(i);
    gx(i) = (gp - gm) / (2 * h);
  }
  const double ht = fd_step(t);
  const double gt = (inner_->event_value(index, t + ht, x, context) -
                     inner_->event_value(index, t - ht, x, context)) /
                    (2 * ht);
  const auto m = static_cast<Eigen::Index>(parameters_.size());
  Eigen::RowVectorXd gp(m);
  std::vector<double> p(context.p.begin(), context.p.end());
  Context perturbed = context;
  perturbed.p = p;
  perturbed.p_mutable = {};
  for (Eigen::Index j = 0; j < m; ++j) {
    const std::size_t k = parameters_[static_cast<std::size_t>(j)];
    const double original = p[k];
    const double h = fd_step(original);
    p[k] = original + h;
    const double plus = inner_->event_value(index, t, x, perturbed);
    p[k] = original - h;
    const double minus = inner_->event_value(index, t, x, perturbed);
    p[k] = original;
    gp(j) = (plus - minus) / (2 * h);
  }
  const double g_dot = gx.dot(f_minus) + gt;
  // A grazing crossing (g_dot = 0) has no defined event-time sensitivity: report none, so
  // only the reset part of the jump remains.
  if (g_dot == 0.0) return Eigen::RowVectorXd::Zero(m);
  return -(gx.transpose() * s + gp) / g_dot;
}

Eigen::RowVectorXd ForwardSensitivityModel::event_time_sensitivity(const EventRecord& event,
                                                                   std::span<const double> p,
                                                                   InputSample u) const {
  if (event.state.size() != n_ * (1 + static_cast<Eigen::Index>(parameters_.size()))) {
    throw std::invalid_argument(
        "event_time_sensitivity: the event was not recorded by a run of "
        "this sensitivity model");
  }
  Context context;
  context.p = p;
  context.u = u;
  context.mode = event.mode_before;
  const Vector x = event.state.head(n_);
  Vector f_minus(n_);
  inner_rhs(event.time, x, context, f_minus);
  return event_time_derivative(event.index, event.time, x, sensitivities(event.state), f_minus,
                               context);
}

EventAction ForwardSensitivityModel::on_event(std::size_t index, double t, Vector& state,
                                              Context& context) const {
  const Vector x_minus = state.head(n_);
  Vector f_minus(n_), f_plus(n_);
  inner_rhs(t, x_minus, context, f_minus);

  // Jacobian of the reset R_x: apply the (deterministic) action to perturbed copies.
  Matrix rx(n_, n_);
  for (Eigen::Index i = 0; i < n_; ++i) {
    const double s = fd_step(x_minus(i));
    Vector xp = x_minus, xm = x_minus;
    xp(i) += s;
    xm(i) -= s;
    Context cp = context, cm = context;
    cp.p_mutable = {};
    cm.p_mutable = {};
    (void)inner_->on_event(index, t, xp, cp);
    (void)inner_->on_event(index, t, xm, cm);
    rx.col(i) = (xp - xm) / (2 * s);
  }

  // Parameter dependence of the reset R_p (e.g. a restitution coefficient).
  const auto m = static_cast<Eigen::Index>(parameters_.size());
  Matrix rp(n_, m);
  {
    thread_local std::vector<double> p;
    for (Eigen::Index j = 0; j < m; ++j) {
      const std::size_t k = parameters_[static_cast<std::size_t>(j)];
      const double h = fd_step(context.p[k]);
      Vector xp = x_minus, xm = x_minus;
      p.assign(context.p.begin(), context.p.end());
      Context cp = context, cm = context;
      cp.p_mutable = {};
      cm.p_mutable = {};
      p[k] += h;
      cp.p = p;
      (void)inner_->on_event(index, t, xp, cp);
      p[k] -= 2 * h;
      cm.p = p;
      (void)inner_->on_event(index, t, xm, cm);
      rp.col(j) = (xp - xm) / (2 * h);
    }
  }

  // The event time's sensitivity belongs to the mode before the action.
  Eigen::Map<Matrix> s(state.data() + n_, n_, m);
  const Eigen::RowVectorXd dtau = event_time_derivative(index, t, x_minus, s, f_minus, context);

  Vector x = x_minus;
  const EventAction action = inner_->on_event(index, t, x, context);
  inner_rhs(t, x, context, f_plus);

  const Matrix s_plus = rx * s + rp + (rx * f_minus - f_plus) * dtau;
  s = s_plus;
  state.head(n_) = x;
  return action;
}

}  // namespace simverify::simulation::analysis
