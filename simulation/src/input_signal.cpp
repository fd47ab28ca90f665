#include <simverify/simulation/input_signal.hpp>

#include "detail/sample_index.hpp"

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
// signal is read only at the sample instants t_k = k T and held in between. Every sample
// instant is a jump: the simulator ends a step there, so no step straddles two pieces (a
// fixed-step method keeps its order, an adaptive one rejects no step at a sample).
class HeldInput final : public InputSignal {
 public:
  HeldInput(InputPtr signal, double sample_time)
      : signal_(std::move(signal)), sample_time_(sample_time) {}

  [[nodiscard]] InputSample at(double t) const override {
    return {signal_->at(detail::sample_index(t, sample_time_) * sample_time_).value, 0.0};
  }
  [[nodiscard]] double next_jump(double t) const override {
    return detail::next_sample_start(t, sample_time_);
  }

 private:
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
