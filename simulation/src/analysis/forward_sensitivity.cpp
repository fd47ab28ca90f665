#include <simverify/simulation/analysis/forward_sensitivity.hpp>

#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

namespace simverify::simulation::analysis {
namespace {

// Central-difference step for a quantity of magnitude `scale` (truncation ~ s^2 balanced
// against round-off ~ eps / s).
double fd_step(double scale) {
  return std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(scale), 1.0);
}

// d f/d(variable) from f0 = f(v), f_plus = f(v + h), f_minus = f(v - h), staying in the mode f
// is in at v. A model whose mode follows from its state (a diagram's limited integrator is
// held on one side of its band's edge, a switch passes u1 on one side of its threshold) has
// a jump or a kink of f there; a central quotient straddling a jump is about J / 2h (1e5 J
// for h = 6e-6: a dtau/dk of 0 and a stiff sensitivity ODE, "step size underflow", for the
// limit as the parameter), one straddling a kink mixes the two modes' slopes. A component is
// suspect when one side changes 1e3 times more than the other or the two differ by over 10%
// (smooth f: by h f'' against h f', so only within ~10 h of a stationary point), and by more
// than 1e-6 of f. f at v +- h/2 (`at(offset, f)`) then tells which side is linear: its
// second difference is 10 times smaller than the other side's, and its one-sided quotient
// is taken (the other side crossed the jump or kink). Everything else keeps the central
// quotient bit for bit.
template <class At>
void mode_quotient(const Vector& f0, const Vector& f_plus, const Vector& f_minus, double h, At&& at,
                   Eigen::Ref<Vector> out) {
  constexpr double kJumpRatio = 1e3;
  constexpr double kFloor = 1e-6;
  constexpr double kKink = 0.1;
  constexpr double kLinear = 10.0;
  Vector half_plus, half_minus;  // f at v +- h/2, when a component needs them
  for (Eigen::Index i = 0; i < f0.size(); ++i) {
    const double up = f_plus(i) - f0(i);
    const double down = f0(i) - f_minus(i);
    const double big = std::max(std::abs(up), std::abs(down));
    const double small = std::min(std::abs(up), std::abs(down));
    const double size = std::max({std::abs(f0(i)), std::abs(f_plus(i)), std::abs(f_minus(i))});
    out(i) = (f_plus(i) - f_minus(i)) / (2 * h);
    if (!(big > kFloor * size)) continue;
    if (!(big > kJumpRatio * small) && !(std::abs(up - down) > kKink * big)) continue;
    if (half_plus.size() == 0) {
      half_plus.resize(f0.size());
      half_minus.resize(f0.size());
      at(0.5 * h, half_plus);
      at(-0.5 * h, half_minus);
    }
    const double bend_up = std::abs(f_plus(i) - 2.0 * half_plus(i) + f0(i));
    const double bend_down = std::abs(f_minus(i) - 2.0 * half_minus(i) + f0(i));
    if (bend_up > kLinear * bend_down) {
      out(i) = down / h;
    } else if (bend_down > kLinear * bend_up) {
      out(i) = up / h;
    }
  }
}

int sign_of(double v) {
  return (v > 0.0) - (v < 0.0);
}

// The Jacobians R_x and R_p of an event's (deterministic) action, by central differences:
// `act(x, p)` applies the action to a copy x with the parameters p.
struct ResetJacobians {
  Matrix rx, rp;
};
template <class Act>
ResetJacobians reset_jacobians(const Vector& x_minus, std::span<const double> p0,
                               std::span<const std::size_t> parameters, Act&& act) {
  const Eigen::Index n = x_minus.size();
  const auto m = static_cast<Eigen::Index>(parameters.size());
  ResetJacobians r{Matrix(n, n), Matrix(n, m)};
  for (Eigen::Index i = 0; i < n; ++i) {
    const double s = fd_step(x_minus(i));
    Vector xp = x_minus, xm = x_minus;
    xp(i) += s;
    xm(i) -= s;
    act(xp, p0);
    act(xm, p0);
    r.rx.col(i) = (xp - xm) / (2 * s);
  }
  // The parameters' part, e.g. a restitution coefficient.
  std::vector<double> p(p0.begin(), p0.end());
  for (Eigen::Index j = 0; j < m; ++j) {
    const std::size_t k = parameters[static_cast<std::size_t>(j)];
    const double original = p[k];
    const double h = fd_step(original);
    Vector xp = x_minus, xm = x_minus;
    p[k] = original + h;
    act(xp, p);
    p[k] = original - h;
    act(xm, p);
    p[k] = original;
    r.rp.col(j) = (xp - xm) / (2 * h);
  }
  return r;
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

void ForwardSensitivityModel::state_jacobian(double t, const Vector& x, const Vector& f,
                                             const Context& context, Matrix& fx) const {
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
    const auto at = [&](double offset, Vector& out) {
      xp(j) = x(j) + offset;
      inner_rhs(t, xp, context, out);
      xp(j) = x(j);
    };
    xp(j) = x(j);
    mode_quotient(f, fplus, fminus, s, at, fx.col(j));
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
  state_jacobian(t, x, f, context, fx);
  // f_p by central differences on a per-thread copy of the parameters (the model is shared
  // read-only between concurrent runs).
  thread_local std::vector<double> p;
  p.assign(context.p.begin(), context.p.end());
  Context perturbed = context;
  perturbed.p = p;
  perturbed.p_mutable = {};
  Vector fplus(n_), fminus(n_), fp(n_);
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
    const auto at = [&](double offset, Vector& out) {
      p[k] = original + offset;
      inner_rhs(t, x, perturbed, out);
      p[k] = original;
    };
    mode_quotient(f, fplus, fminus, h, at, fp);
    dstate.segment(n_ * (1 + j), n_) = fx * s.col(j) + fp;
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

ForwardSensitivityModel::EventGradient ForwardSensitivityModel::event_gradient(
    std::size_t index, double t, const Vector& x, const Context& context) const {
  // Gradient g_x, time derivative g_t and parameter derivatives g_p of the event function
  // (central differences).
  EventGradient g;
  g.gx.resize(n_);
  Vector xp = x;
  for (Eigen::Index i = 0; i < n_; ++i) {
    const double h = fd_step(x(i));
    xp(i) = x(i) + h;
    const double gp = inner_->event_value(index, t, xp, context);
    xp(i) = x(i) - h;
    const double gm = inner_->event_value(index, t, xp, context);
    xp(i) = x(i);
    g.gx(i) = (gp - gm) / (2 * h);
  }
  const double ht = fd_step(t);
  g.gt = (inner_->event_value(index, t + ht, x, context) -
          inner_->event_value(index, t - ht, x, context)) /
         (2 * ht);
  const auto m = static_cast<Eigen::Index>(parameters_.size());
  g.gp.resize(m);
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
    g.gp(j) = (plus - minus) / (2 * h);
  }
  return g;
}

int ForwardSensitivityModel::side_before(std::size_t index, double t, const Vector& x,
                                         const EventGradient& g, const Context& context) const {
  switch (inner_->info().events[index].direction) {
    case EventDirection::rising: return -1;
    case EventDirection::falling: return 1;
    case EventDirection::either: break;
  }
  // The located state is on or past the surface (the bracket's right end): the side before
  // is the other one, or, on it, the one the flow comes from.
  if (const int after = sign_of(inner_->event_value(index, t, x, context)); after != 0) {
    return -after;
  }
  Vector f(n_);
  inner_rhs(t, x, context, f);
  return -sign_of(g.gx.dot(f) + g.gt);
}

Vector ForwardSensitivityModel::field_beside(std::size_t index, double t, const Vector& x,
                                             const EventGradient& g, int side,
                                             const Context& context) const {
  // f on the given side of the event's surface (side: the sign of g there). The event is
  // located on or just past the surface, and where the model's mode follows from its state
  // the surface is where f jumps (a limited integrator's band edge, a switch's threshold):
  // f at the located state is then f after the event. f before it is f at the state moved
  // the least across the surface: along g_x (or in time when g does not depend on x) by
  // |g| / |g_x| plus a few ulps, doubled until g has the sign wanted. The move is ~1e-12
  // of the state for a crossing located to 1e-12, so f changes by that much where it is
  // continuous (a mode set by the action, as the pendulum's).
  Vector f(n_);
  const double g0 = inner_->event_value(index, t, x, context);
  if (side == 0 || sign_of(g0) == side) {
    inner_rhs(t, x, context, f);
    return f;
  }
  const double eps = std::numeric_limits<double>::epsilon();
  const double norm = g.gx.norm();
  if (norm > 0.0) {
    const Vector direction = (static_cast<double>(side) / norm) * g.gx;
    const double base = std::abs(g0) / norm;
    const double ulp = 4.0 * eps * std::max(x.lpNorm<Eigen::Infinity>(), 1.0);
    Vector moved(n_);
    for (int k = 0; k < 40; ++k) {
      moved = x + (base + std::ldexp(ulp, k)) * direction;
      if (sign_of(inner_->event_value(index, t, moved, context)) == side) {
        inner_rhs(t, moved, context, f);
        return f;
      }
    }
  } else if (g.gt != 0.0) {
    const double ulp = 4.0 * eps * std::max(std::abs(t), 1.0);
    const double dir = static_cast<double>(side * sign_of(g.gt));
    const double base = std::abs(g0 / g.gt);
    for (int k = 0; k < 40; ++k) {
      const double moved = t + dir * (base + std::ldexp(ulp, k));
      if (sign_of(inner_->event_value(index, moved, x, context)) == side) {
        inner_rhs(moved, x, context, f);
        return f;
      }
    }
  }
  inner_rhs(t, x, context, f);
  return f;
}

Eigen::RowVectorXd ForwardSensitivityModel::event_time_derivative(const EventGradient& g,
                                                                  const Matrix& s,
                                                                  const Vector& f_minus) const {
  const double g_dot = g.gx.dot(f_minus) + g.gt;
  // A grazing crossing (g_dot = 0) has no defined event-time sensitivity: report none, so
  // only the reset part of the jump remains.
  if (g_dot == 0.0) return Eigen::RowVectorXd::Zero(static_cast<Eigen::Index>(parameters_.size()));
  return -(g.gx.transpose() * s + g.gp) / g_dot;
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
  const EventGradient g = event_gradient(event.index, event.time, x, context);
  const Vector f_minus = field_beside(event.index, event.time, x, g,
                                      side_before(event.index, event.time, x, g, context), context);
  return event_time_derivative(g, sensitivities(event.state), f_minus);
}

EventAction ForwardSensitivityModel::on_event(std::size_t index, double t, Vector& state,
                                              Context& context) const {
  const Vector x_minus = state.head(n_);
  const int mode_minus = context.mode;
  // The event time's sensitivity belongs to the mode before the action, f- to the side of
  // the surface the run came from.
  const EventGradient g = event_gradient(index, t, x_minus, context);
  const int before = side_before(index, t, x_minus, g, context);
  const Vector f_minus = field_beside(index, t, x_minus, g, before, context);

  // R_x and R_p of the reset, on perturbed copies.
  const auto [rx, rp] =
      reset_jacobians(x_minus, context.p, parameters_, [&](Vector& x, std::span<const double> p) {
        Context copy = context;
        copy.p = p;
        copy.p_mutable = {};
        (void)inner_->on_event(index, t, x, copy);
      });
  const auto m = static_cast<Eigen::Index>(parameters_.size());
  Eigen::Map<Matrix> s(state.data() + n_, n_, m);
  const Eigen::RowVectorXd dtau = event_time_derivative(g, s, f_minus);

  Vector x = x_minus;
  const EventAction action = inner_->on_event(index, t, x, context);
  // Without a reset (a switch's threshold crossed, nothing else changed) the state after the
  // event is the located one, on or past the surface: f+ is f on the far side.
  const bool unchanged = x == x_minus && context.mode == mode_minus;
  const Vector f_plus = field_beside(index, t, x, g, unchanged ? -before : 0, context);

  const Matrix s_plus = rx * s + rp + (rx * f_minus - f_plus) * dtau;
  s = s_plus;
  state.head(n_) = x;
  return action;
}

double ForwardSensitivityModel::next_time_event(double t, const Context& context) const {
  const double next = inner_->next_time_event(t, context);
  if (!std::isfinite(next)) return next;
  // An instant that moves with a parameter would need its dtau/dp (the jump's f- - f+ term);
  // refuse rather than continue the sensitivities as if it stood still.
  std::vector<double> p(context.p.begin(), context.p.end());
  Context perturbed = context;
  perturbed.p = p;
  perturbed.p_mutable = {};
  for (const std::size_t k : parameters_) {
    const double original = p[k];
    const double h = fd_step(original);
    for (const double moved : {original + h, original - h}) {
      p[k] = moved;
      if (inner_->next_time_event(t, perturbed) != next) {
        throw std::runtime_error(
            "forward sensitivities: the time event at t = " + std::to_string(next) +
            " moves with parameter '" + inner_->info().parameters[k].name +
            "' (a sampling period); its sensitivity is not continued "
            "across it: use central differences");
      }
    }
    p[k] = original;
  }
  return next;
}

EventAction ForwardSensitivityModel::on_time_event(double t, Vector& state,
                                                   Context& context) const {
  const Vector x_minus = state.head(n_);
  // R_x and R_p of the action (a hold's sample of its input) by central differences on
  // copies; the instant is fixed (next_time_event refuses one that moves), so dtau/dp = 0.
  const auto [rx, rp] =
      reset_jacobians(x_minus, context.p, parameters_, [&](Vector& x, std::span<const double> p) {
        Context copy = context;
        copy.p = p;
        copy.p_mutable = {};
        (void)inner_->on_time_event(t, x, copy);
      });
  const auto m = static_cast<Eigen::Index>(parameters_.size());
  Vector x = x_minus;
  const EventAction action = inner_->on_time_event(t, x, context);
  Eigen::Map<Matrix> s(state.data() + n_, n_, m);
  const Matrix s_plus = rx * s + rp;
  s = s_plus;
  state.head(n_) = x;
  return action;
}

}  // namespace simverify::simulation::analysis
