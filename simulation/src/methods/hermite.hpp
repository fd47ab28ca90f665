#pragma once
// Hermite interpolation on one step from values and derivatives: the dense output of methods
// without a continuous extension of their own.
#include <simverify/simulation/ode_system.hpp>

#include <array>
#include <cstddef>

namespace simverify::simulation::detail {

// Cubic Hermite on (x, f) at both ends of the step: third-order accurate (local error
// O(h^4)).
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

// Hermite interpolation through (x, dx/dtheta) at Points nodes theta_0 < ... of one step, in
// Newton form on the doubled nodes z = (theta_0, theta_0, theta_1, theta_1, ...): the
// polynomial of degree 2 Points - 1 matching every value and derivative. Its error is
// x^(2P)(xi) / (2P)! prod_i (theta - theta_i)^2 h^(2P) (Hermite's remainder), so with exact
// data it is of local order 2P in h.
template <std::size_t Points>
class HermiteNewton {
 public:
  static constexpr std::size_t kTerms = 2 * Points;

  // value[i] = x at theta_i, slope[i] = h f at theta_i (the derivative in theta).
  void fit(const std::array<double, Points>& theta, const std::array<const Vector*, Points>& value,
           const std::array<const Vector*, Points>& slope) {
    for (std::size_t j = 0; j < kTerms; ++j) {
      z_[j] = theta[j / 2];
      c_[j] = *value[j / 2];
    }
    // Divided differences in place, bottom up, so c_[j] ends as f[z_0 .. z_j]; at a doubled
    // node the first difference is the derivative.
    for (std::size_t order = 1; order < kTerms; ++order) {
      for (std::size_t j = kTerms - 1; j >= order; --j) {
        if (order == 1 && j % 2 == 1) {
          c_[j] = *slope[j / 2];
        } else {
          c_[j] = (c_[j] - c_[j - 1]) / (z_[j] - z_[j - order]);
        }
      }
    }
  }

  // out = p(theta) by Horner's scheme on the Newton form.
  void evaluate(double theta, Vector& out) const {
    out = c_[kTerms - 1];
    for (std::size_t j = kTerms - 1; j-- > 0;) out = c_[j] + (theta - z_[j]) * out;
  }

 private:
  std::array<double, kTerms> z_{};
  std::array<Vector, kTerms> c_;
};

}  // namespace simverify::simulation::detail
