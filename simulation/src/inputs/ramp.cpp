#include <simverify/simulation/input_signal.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace simverify::simulation {
namespace {

// Zero until `at`, then a straight line; u' is the right derivative at the kink.
class RampInput final : public InputSignal {
 public:
  RampInput(double at, double slope) : at_(at), slope_(slope) {}
  [[nodiscard]] InputSample at(double t) const override {
    if (t < at_) return {0.0, 0.0};
    return {slope_ * (t - at_), slope_};
  }
  [[nodiscard]] double next_jump(double t) const override {  // the kink
    return t < at_ && slope_ != 0.0 ? at_ : std::numeric_limits<double>::infinity();
  }

 private:
  double at_;
  double slope_;
};

}  // namespace

InputPtr ramp_input(double at, double slope) {
  if (!std::isfinite(at) || !std::isfinite(slope)) {
    throw std::invalid_argument("ramp: at and slope must be finite");
  }
  return std::make_shared<RampInput>(at, slope);
}

}  // namespace simverify::simulation
