#pragma once
// Cubic Hermite interpolation on one step from the end values and derivatives: the dense
// output of methods without a continuous extension of their own (third-order accurate).
#include <simverify/simulation/ode_system.hpp>

namespace simverify::simulation::detail {

inline void hermite_interpolate(double t0, const Vector& x0, const Vector& f0, double t1,
                                const Vector& x1, const Vector& f1, double t, Vector& out) {
  const double h = t1 - t0;
  const double s = (t - t0) / h;
  const double s2 = s * s;
  const double s3 = s2 * s;
  const double h00 = 2 * s3 - 3 * s2 + 1;
  const double h10 = s3 - 2 * s2 + s;
  const double h01 = -2 * s3 + 3 * s2;
  const double h11 = s3 - s2;
  out = h00 * x0 + (h10 * h) * f0 + h01 * x1 + (h11 * h) * f1;
}

}  // namespace simverify::simulation::detail
