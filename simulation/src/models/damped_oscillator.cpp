#include "models/damped_oscillator.hpp"

#include <cmath>

namespace simverify::simulation::models::detail {

// With A = [[0, 1], [-w0^2, -2 alpha]], (A + alpha I)^2 = (alpha^2 - w0^2) I, so
//   exp(A tau) = exp(-alpha tau) (C I + S (A + alpha I)),
// where, with disc = alpha^2 - w0^2, C = cos(w tau), S = sin(w tau) / w (w^2 = -disc > 0,
// under-damped), C = 1, S = tau (critical), C = cosh(b tau), S = sinh(b tau) / b
// (b^2 = disc > 0, over-damped). One formula for all regimes; near the critical case
// sin(w tau) / w and sinh(b tau) / b stay accurate because w, b are computed directly.
OscillatorState damped_oscillator(double tau, double z0, double dz0, double alpha,
                                  double omega0_squared) {
  const double disc = alpha * alpha - omega0_squared;
  double c = 1.0;  // exp(-alpha tau) C
  double s = tau;  // exp(-alpha tau) S
  if (disc < 0.0) {
    const double w = std::sqrt(-disc);
    const double decay = std::exp(-alpha * tau);
    c = decay * std::cos(w * tau);
    s = decay * std::sin(w * tau) / w;
  } else if (disc > 0.0) {
    const double b = std::sqrt(disc);
    if (b * tau < 1.0) {
      const double decay = std::exp(-alpha * tau);
      c = decay * std::cosh(b * tau);
      s = decay * std::sinh(b * tau) / b;
    } else {
      // Split cosh/sinh into exponentials so exp(-alpha tau) cosh(b tau) cannot overflow.
      const double slow = std::exp((b - alpha) * tau);
      const double fast = std::exp(-(alpha + b) * tau);
      c = 0.5 * (slow + fast);
      s = 0.5 * (slow - fast) / b;
    }
  } else {
    const double decay = std::exp(-alpha * tau);
    c = decay;
    s = decay * tau;
  }
  return {c * z0 + s * (alpha * z0 + dz0), c * dz0 + s * (-omega0_squared * z0 - alpha * dz0)};
}

}  // namespace simverify::simulation::models::detail
