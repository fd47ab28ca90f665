#pragma once
// ARGESIM Comparison C7 "Constrained Pendulum": a pendulum of length l swings about its pivot;
// a pin at angle phi_pin, a distance l_p from the pivot, catches the string, so while
// phi < phi_pin the mass swings on the short length l - l_p about the pin.
//   states (phi, v) with v = l_act phi' the tangential velocity,
//   phi' = v / l_act,   v' = -g sin(phi) - (d / m) v   (variant "nonlinear", the default)
//                       v' = -g phi      - (d / m) v   (variant "linear")
// Modes: kPendulumLong (0, l_act = l) on the side phi > phi_pin, kPendulumShort (1,
// l_act = l - l_p) on phi < phi_pin. Two state events share g = phi - phi_pin: "hit" (falling,
// long -> short) and "release" (rising, short -> long). v is continuous at both, so phi'
// jumps by the length ratio, as C7 prescribes.
#include <simverify/simulation/model.hpp>

namespace simverify::simulation::models {

inline constexpr int kPendulumLong = 0;
inline constexpr int kPendulumShort = 1;

struct PendulumState {
  double phi = 0.0;
  double v = 0.0;
};

// The linear variant inside one mode, in closed form: phi'' + (d/m) phi' + (g / L) phi = 0
// with phi' = v / L, a time tau after (phi0, v0). Ignores the pin (no events).
[[nodiscard]] PendulumState linear_pendulum_solution(double tau, double phi0, double v0,
                                                     double length, double damping_rate, double g);

class ConstrainedPendulum final : public Model {
 public:
  // variant: "nonlinear" or "linear".
  explicit ConstrainedPendulum(bool linear);

  void rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const override;
  // Outputs phi, v, dphi = v / l_act (jumps at events) and the active length.
  void output(double t, const Vector& x, const Context& context, Vector& y) const override;
  [[nodiscard]] bool has_jacobian() const override { return true; }
  void jacobian(double t, const Vector& x, const Context& context, Matrix& dfdx) const override;
  // Linear variant only: the hybrid solution with its hit/release events, each located by
  // bisection on the closed-form solution of the active mode (starting in initial_mode).
  [[nodiscard]] bool has_exact_solution() const override { return linear_; }
  void exact_solution(double t, double t0, const Vector& x0, const Context& context,
                      Vector& x) const override;
  double event_value(std::size_t index, double t, const Vector& x,
                     const Context& context) const override;
  EventAction on_event(std::size_t index, double t, Vector& x, Context& context) const override;
  // Long above the pin, short below it; exactly on the pin the sign of v decides (v < 0
  // swings into the short side, v >= 0 stays long).
  [[nodiscard]] int initial_mode(double t0, const Vector& x0,
                                 const Context& context) const override;

  // Parameter indices in ModelInfo::parameters.
  static constexpr std::size_t kMass = 0;
  static constexpr std::size_t kLength = 1;
  static constexpr std::size_t kPinDistance = 2;
  static constexpr std::size_t kDamping = 3;
  static constexpr std::size_t kGravity = 4;
  static constexpr std::size_t kPinAngle = 5;
  static constexpr std::size_t kHit = 0;
  static constexpr std::size_t kRelease = 1;

 private:
  bool linear_;
};

}  // namespace simverify::simulation::models
