#include <simverify/simulation/input_signal.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace simverify::simulation {
namespace {

class ConstantInput final : public InputSignal {
 public:
  explicit ConstantInput(double value) : value_(value) {}
  [[nodiscard]] InputSample at(double /*t*/) const override { return {value_, 0.0}; }

 private:
  double value_;
};

// Zero-order hold (Simulink solver list: sampled signals in fixed-step simulation): the inner
// signal is read only at the sample instants t_k = k T and held in between.
class HeldInput final : public InputSignal {
 public:
  HeldInput(InputPtr signal, double sample_time)
      : signal_(std::move(signal)), sample_time_(sample_time) {}

  [[nodiscard]] InputSample at(double t) const override {
    double k = std::floor(t / sample_time_);
    // t = 0.3 gives t / 0.1 = 2.9999999999999996: such a t sits on sample 3, not inside
    // period 2. The snap width 1e-9 T is far above round-off and far below any useful T.
    if ((k + 1.0) * sample_time_ - t <= kSnap * sample_time_) k += 1.0;
    return {signal_->at(k * sample_time_).value, 0.0};
  }

 private:
  static constexpr double kSnap = 1e-9;
  InputPtr signal_;
  double sample_time_;
};

}  // namespace

InputPtr constant_input(double value) {
  return std::make_shared<ConstantInput>(value);
}

InputPtr hold(InputPtr signal, double sample_time) {
  if (!signal) throw std::invalid_argument("hold: no signal to hold");
  if (!(sample_time > 0.0) || !std::isfinite(sample_time)) {
    throw std::invalid_argument("hold: sample time T must be positive and finite, got " +
                                std::to_string(sample_time));
  }
  return std::make_shared<HeldInput>(std::move(signal), sample_time);
}

}  // namespace simverify::simulation
