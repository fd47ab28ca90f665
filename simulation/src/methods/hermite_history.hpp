#pragma once
// Dense output for a method without a continuous extension of its own but of high order
// (PD8(7)): the Hermite interpolant through the last m accepted points, matching x and f at
// each, a polynomial of degree 2m - 1. Its error on the last step is
//   x^(2m)(xi) / (2m)! prod_k (t - t_k)^2   (Hermite's remainder, e.g. Stoer-Bulirsch 2.1.5),
// O(h^(2m)) for steps of similar size: degree 7 (m = 4) matches an 8th-order method's
// O(h^8) global error, where cubic Hermite (m = 2) would lose five orders. The points are
// the step ends the method computed anyway (f at a step end is the next step's k_1), so the
// interpolant costs no f evaluation. After a restart (an event, a new segment) the history
// starts again with the first step: degree 3, then 5, then 2m - 1.
#include <simverify/simulation/ode_system.hpp>

#include <cstddef>
#include <vector>

namespace simverify::simulation::detail {

class HermiteHistory {
 public:
  // Room for m points of dimension n; allocates (the step loop does not).
  void resize(int points, Eigen::Index n) {
    const auto m = static_cast<std::size_t>(points);
    t_.assign(m, 0.0);
    x_.assign(m, Vector::Zero(n));
    f_.assign(m, Vector::Zero(n));
    z_.assign(2 * m, 0.0);
    dd_.assign(2 * m, Vector::Zero(n));
    count_ = 0;
    newest_ = m - 1;
    coefficients_valid_ = false;
  }
  void clear() {
    count_ = 0;
    coefficients_valid_ = false;
  }
  [[nodiscard]] bool empty() const { return count_ == 0; }
  // True when (t, x) is the newest point, so a step from there continues the history.
  [[nodiscard]] bool continues_from(double t, const Vector& x) const {
    return count_ > 0 && t == t_[newest_] && x == x_[newest_];
  }

  void push(double t, const Vector& x, const Vector& f) {
    newest_ = (newest_ + 1) % t_.size();
    t_[newest_] = t;
    x_[newest_] = x;
    f_[newest_] = f;
    if (count_ < t_.size()) ++count_;
    coefficients_valid_ = false;
  }

  // The interpolant at t (meant for the last step, between the two newest points).
  void interpolate(double t, Vector& out) const {
    if (!coefficients_valid_) divided_differences();
    const std::size_t nodes = 2 * count_;
    out = dd_[nodes - 1];
    for (std::size_t j = nodes - 1; j-- > 0;) {
      out *= (t - z_[j]);
      out += dd_[j];
    }
  }

 private:
  // Newton form on the doubled nodes z = (t_0, t_0, t_1, t_1, ...), oldest first: the
  // confluent divided differences, f where a difference would divide by zero.
  void divided_differences() const {
    const std::size_t m = t_.size();
    const std::size_t oldest = (newest_ + m + 1 - count_) % m;
    for (std::size_t k = 0; k < count_; ++k) {
      const std::size_t slot = (oldest + k) % m;
      z_[2 * k] = z_[2 * k + 1] = t_[slot];
      dd_[2 * k] = x_[slot];
      dd_[2 * k + 1] = x_[slot];
    }
    const std::size_t nodes = 2 * count_;
    for (std::size_t j = 1; j < nodes; ++j) {
      for (std::size_t i = nodes - 1; i >= j; --i) {
        if (j == 1 && i % 2 == 1) {
          dd_[i] = f_[(oldest + i / 2) % m];  // x[t_k, t_k] = x'(t_k)
        } else {
          dd_[i] -= dd_[i - 1];
          dd_[i] /= (z_[i] - z_[i - j]);
        }
      }
    }
    coefficients_valid_ = true;
  }

  std::vector<double> t_;
  std::vector<Vector> x_, f_;
  std::size_t count_ = 0;
  std::size_t newest_ = 0;
  mutable std::vector<double> z_;
  mutable std::vector<Vector> dd_;
  mutable bool coefficients_valid_ = false;
};

}  // namespace simverify::simulation::detail
