#pragma once
// The right-hand side a solution method sees: x' = f(t, x) (Def 3.1), optionally with its
// Jacobian. A Simulator binds a model, its input signal and its parameters into one of these,
// so the methods know nothing about models (Fig 3.5: model and method kept apart).
#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <utility>

namespace simverify::simulation {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;

class OdeSystem {
 public:
  using Rhs = std::function<void(double t, const Vector& x, Vector& dxdt)>;
  using Jacobian = std::function<void(double t, const Vector& x, Matrix& dfdx)>;

  OdeSystem(Eigen::Index dimension, Rhs rhs, Jacobian jacobian = {})
      : dimension_(dimension), rhs_(std::move(rhs)), jacobian_(std::move(jacobian)) {}

  [[nodiscard]] Eigen::Index dimension() const { return dimension_; }
  [[nodiscard]] bool has_jacobian() const { return static_cast<bool>(jacobian_); }

  void rhs(double t, const Vector& x, Vector& dxdt) const {
    ++rhs_evaluations_;
    rhs_(t, x, dxdt);
  }
  void jacobian(double t, const Vector& x, Matrix& dfdx) const {
    ++jacobian_evaluations_;
    jacobian_(t, x, dfdx);
  }

  // Counters for the statistics every simulator run reports (f evaluations, Jacobians).
  [[nodiscard]] std::int64_t rhs_evaluations() const { return rhs_evaluations_; }
  [[nodiscard]] std::int64_t jacobian_evaluations() const { return jacobian_evaluations_; }

 private:
  Eigen::Index dimension_;
  Rhs rhs_;
  Jacobian jacobian_;
  mutable std::int64_t rhs_evaluations_ = 0;
  mutable std::int64_t jacobian_evaluations_ = 0;
};

}  // namespace simverify::simulation
