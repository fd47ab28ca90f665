#pragma once
// The right-hand side a solution method sees: x' = f(t, x) (Def 3.1), optionally with its
// Jacobian. A Simulator binds a model, its input signal and its parameters into one of these,
// so the methods know nothing about models (Fig 3.5: model and method kept apart).
#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace simverify::simulation {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;

class OdeSystem {
 public:
  using Rhs = std::function<void(double t, const Vector& x, Vector& dxdt)>;
  using Jacobian = std::function<void(double t, const Vector& x, Matrix& dfdx)>;
  using Acceleration = std::function<void(double t, const Vector& q, Vector& qdd)>;
  // x'' = g(t, q) (Runge-Kutta-Nystrom methods): q = x[positions], q' = x[velocities].
  struct SecondOrder {
    std::vector<Eigen::Index> positions;
    std::vector<Eigen::Index> velocities;
    Acceleration acceleration;
  };

  OdeSystem(Eigen::Index dimension, Rhs rhs, Jacobian jacobian = {})
      : dimension_(dimension), rhs_(std::move(rhs)), jacobian_(std::move(jacobian)) {}

  [[nodiscard]] Eigen::Index dimension() const { return dimension_; }
  [[nodiscard]] bool has_jacobian() const { return static_cast<bool>(jacobian_); }

  // Always inline: a counter and the call of f, into stage loops that may be too long for
  // GCC's size limits (the fixed-size stages of RK8(7)13M on Vectors).
  [[gnu::always_inline]] void rhs(double t, const Vector& x, Vector& dxdt) const {
    ++rhs_evaluations_;
    rhs_(t, x, dxdt);  // GCOVR_EXCL_BR_LINE: std::function's empty test, once per inlined copy
  }
  void jacobian(double t, const Vector& x, Matrix& dfdx) const {
    ++jacobian_evaluations_;
    jacobian_(t, x, dfdx);
  }

  void set_second_order(SecondOrder structure) { second_order_ = std::move(structure); }
  [[nodiscard]] const std::optional<SecondOrder>& second_order() const { return second_order_; }
  // g(t, q), counted as an evaluation of f: it is what one f evaluation costs such a system,
  // so f_evals compare Nystrom and general methods.
  void acceleration(double t, const Vector& q, Vector& qdd) const {
    ++rhs_evaluations_;
    second_order_->acceleration(t, q, qdd);
  }

  // Evaluations of f made outside rhs(): a stepper with a right-hand side of its own, inlined
  // into its stages (the fixed-size path), counts them here.
  void count_rhs_evaluations(std::int64_t evaluations) const { rhs_evaluations_ += evaluations; }

  // Counters for the statistics every simulator run reports (f evaluations, Jacobians).
  [[nodiscard]] std::int64_t rhs_evaluations() const { return rhs_evaluations_; }
  [[nodiscard]] std::int64_t jacobian_evaluations() const { return jacobian_evaluations_; }

 private:
  Eigen::Index dimension_;
  Rhs rhs_;
  Jacobian jacobian_;
  std::optional<SecondOrder> second_order_;
  mutable std::int64_t rhs_evaluations_ = 0;
  mutable std::int64_t jacobian_evaluations_ = 0;
};

}  // namespace simverify::simulation
