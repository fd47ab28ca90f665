#include <simverify/simulation/input_signal.hpp>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace simverify::simulation {
namespace {

// Linear chirp: the phase is the integral of 2 pi f(t), so u' = amplitude cos(phi) 2 pi f(t)
// is exact (no finite difference), which the quarter car's tyre damper needs (Sec 2.4).
class ChirpInput final : public InputSignal {
 public:
  ChirpInput(double amplitude, double f0, double f1, double duration)
      : amplitude_(amplitude), f0_(f0), f1_(f1), duration_(duration) {}

  [[nodiscard]] InputSample at(double t) const override {
    constexpr double kRadiansPerCycle = 2.0 * std::numbers::pi;
    double phase = 0.0;
    double frequency = 0.0;
    if (t < 0.0) {
      frequency = f0_;
      phase = kRadiansPerCycle * f0_ * t;
    } else if (t <= duration_) {
      frequency = f0_ + (f1_ - f0_) * t / duration_;
      phase = kRadiansPerCycle * (f0_ * t + 0.5 * (f1_ - f0_) * t * t / duration_);
    } else {
      frequency = f1_;
      const double end_phase = kRadiansPerCycle * 0.5 * (f0_ + f1_) * duration_;
      phase = end_phase + kRadiansPerCycle * f1_ * (t - duration_);
    }
    return {amplitude_ * std::sin(phase),
            amplitude_ * kRadiansPerCycle * frequency * std::cos(phase)};
  }

 private:
  double amplitude_;
  double f0_;
  double f1_;
  double duration_;
};

}  // namespace

InputPtr chirp_input(double amplitude, double f0, double f1, double duration) {
  if (!std::isfinite(amplitude) || !std::isfinite(f0) || !std::isfinite(f1)) {
    throw std::invalid_argument("chirp: amplitude, f0 and f1 must be finite");
  }
  if (!(duration > 0.0) || !std::isfinite(duration)) {
    throw std::invalid_argument("chirp: duration must be positive and finite");
  }
  return std::make_shared<ChirpInput>(amplitude, f0, f1, duration);
}

}  // namespace simverify::simulation
