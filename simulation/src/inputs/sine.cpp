#include <simverify/simulation/input_signal.hpp>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace simverify::simulation {
namespace {

class SineInput final : public InputSignal {
 public:
  SineInput(double amplitude, double frequency, double phase)
      : amplitude_(amplitude), omega_(2.0 * std::numbers::pi * frequency), phase_(phase) {}
  [[nodiscard]] InputSample at(double t) const override {
    const double arg = omega_ * t + phase_;
    return {amplitude_ * std::sin(arg), amplitude_ * omega_ * std::cos(arg)};
  }

 private:
  double amplitude_;
  double omega_;  // rad/s
  double phase_;
};

}  // namespace

InputPtr sine_input(double amplitude, double frequency, double phase) {
  if (!std::isfinite(amplitude) || !std::isfinite(frequency) || !std::isfinite(phase)) {
    throw std::invalid_argument("sine: amplitude, frequency and phase must be finite");
  }
  return std::make_shared<SineInput>(amplitude, frequency, phase);
}

}  // namespace simverify::simulation
