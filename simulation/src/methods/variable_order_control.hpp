#pragma once
// Variable-order multistep control shared by ode113 (Adams) and ode15s (BDF) (Shampine &
// Reichelt, "The MATLAB ODE suite", 1997, Sec. 2): after a rejected order-k step the retry
// uses max(0.2, 0.9 err^(-1/(k+1))) and a second failure in a row lowers the order; after
// k+1 accepted steps at order k the error estimates of orders k-1 and k+1 compete with k's
// for the largest step ratio, biased so that a change of order pays for itself; a step may
// at most double.
#include <algorithm>
#include <cmath>

namespace simverify::simulation::detail {

inline constexpr double kMultistepMaxGrowth = 2.0;

class VariableOrderControl {
 public:
  [[nodiscard]] int order() const { return order_; }
  [[nodiscard]] int steps_at_order() const { return steps_at_order_; }
  [[nodiscard]] int best_order() const { return best_order_; }
  // The step ratio of the best order so far, at most kMultistepMaxGrowth.
  [[nodiscard]] double best_ratio() const { return std::min(best_ratio_, kMultistepMaxGrowth); }

  void restart() { *this = VariableOrderControl{}; }

  // An order-k step failed its error test: returns the retry factor for h.
  double rejected(double err, int k) {
    if (++consecutive_failures_ >= 2 && order_ > 1) {
      order_ = std::max(1, k - 1);
      steps_at_order_ = 0;
    }
    const double factor = std::max(0.2, 0.9 * std::pow(err, -1.0 / (k + 1)));
    return std::isfinite(factor) ? factor : 0.2;
  }

  // An order-k step passed with error estimate err (1 == tolerance); opens the choice.
  void accepted(double err, int k) {
    consecutive_failures_ = 0;
    current_ = k;
    best_order_ = k;
    best_ratio_ = ratio(err, k, 1.2);
  }

  // Order q = k-1 or k+1 would have had the error estimate err on the step just accepted.
  void consider(double err, int q) {
    const double r = ratio(err, q, q < current_ ? 1.3 : 1.4);
    if (r > best_ratio_) {
      best_ratio_ = r;
      best_order_ = q;
    }
  }

  // Overrides the choice (a starter order the method leaves as soon as it can).
  void prefer(int q) { best_order_ = q; }

  // Moves to the chosen order, counting its steps afresh, or stays one more step.
  void settle() {
    if (best_order_ != current_) {
      order_ = best_order_;
      steps_at_order_ = 0;
    } else {
      order_ = current_;
      ++steps_at_order_;
    }
  }

 private:
  // The step ratio order q allows for its error estimate e.
  static double ratio(double e, int q, double bias) {
    return e > 0.0 ? 1.0 / (bias * std::pow(e, 1.0 / (q + 1))) : kMultistepMaxGrowth;
  }

  int order_ = 1;
  int steps_at_order_ = 0;
  int consecutive_failures_ = 0;
  int current_ = 1;
  int best_order_ = 1;
  double best_ratio_ = 1.0;
};

}  // namespace simverify::simulation::detail
