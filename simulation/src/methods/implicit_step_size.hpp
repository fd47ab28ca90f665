#pragma once
// Step-size helpers shared by the adaptive implicit and multistep methods (ode23t, ode23tb,
// ode23s, ode113, ode15s; the order control of the last two is in variable_order_control.hpp).
#include <simverify/simulation/stepper.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace simverify::simulation::detail {

// First step of the stiff MATLAB codes (L. F. Shampine, M. W. Reichelt, "The MATLAB ODE
// suite", SIAM J. Sci. Comput. 18(1), 1997, Sec. 4): the step whose leading error term
// h^(p+1)-scaled slope meets 0.8 rtol^(1/(p+1)), with |x| floored at atol/rtol. Explicit
// starters (Hairer's II.4) overshoot on stiff problems; this one only looks at f(t0, x0).
inline double stiff_initial_step(const Vector& x0, const Vector& f0, const StepperSettings& s,
                                 int order, double span) {
  const double rtol = std::max(s.rtol, 100 * std::numeric_limits<double>::epsilon());
  double rh = 0.0;
  for (Eigen::Index i = 0; i < x0.size(); ++i) {
    const double atol = s.atol.size() == static_cast<std::size_t>(x0.size())
                            ? s.atol[static_cast<std::size_t>(i)]
                            : s.atol.front();
    rh = std::max(rh, std::abs(f0(i)) / std::max(std::abs(x0(i)), atol / rtol));
  }
  rh /= 0.8 * std::pow(rtol, 1.0 / (order + 1));
  const double limit = s.max_step > 0.0 ? std::min(s.max_step, span) : span;
  return rh * limit > 1.0 ? 1.0 / rh : limit;
}

// An adaptive step that shrank below the resolution of t cannot make progress.
inline void check_step_underflow(const char* method, double t, double h) {
  if (std::abs(h) <= 16 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t), 1.0)) {
    throw std::runtime_error(std::string(method) + ": step size underflow at t = " +
                             std::to_string(t) + " (h = " + std::to_string(h) +
                             "); the problem may be singular or the tolerances too tight");
  }
}

}  // namespace simverify::simulation::detail
