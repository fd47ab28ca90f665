#include <simverify/simulation/analysis/monte_carlo.hpp>
#include <simverify/simulation/input_signal.hpp>

#include "detail/sample_index.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace simverify::simulation {
namespace {

// White noise in continuous dynamics as the simulation-practice article's discrete update: one draw
// nu_k ~ N(mean, std^2 / hold) per interval [k hold, (k + 1) hold), held over it. The
// integral of u over an interval is hold nu_k with variance std^2 hold, the increment of a
// Wiener process of intensity std, however the solver subdivides the interval; and every
// stage of a step sees the same value, so an adaptive solver is not fooled into tiny steps.
// Draw k is a pure function of (stream, k), so u(t) does not depend on the order or the
// thread in which times are asked for. The interval ends are jumps (next_jump): without a
// sampling grid the simulator steps onto them, so no stage of a step reads the next draw.
class NoiseInput final : public InputSignal {
 public:
  NoiseInput(double mean, double std, double hold, std::uint64_t stream)
      : mean_(mean), scale_(std / std::sqrt(hold)), hold_(hold), stream_(stream) {}

  [[nodiscard]] InputSample at(double t) const override {
    const auto k = static_cast<std::int64_t>(detail::sample_index(t, hold_));
    const std::uint64_t draw = analysis::stream_seed(stream_, static_cast<std::uint64_t>(k));
    return {mean_ + scale_ * standard_normal_.sample(draw), 0.0};
  }
  [[nodiscard]] double next_jump(double t) const override {
    return detail::next_sample_start(t, hold_);
  }

 private:
  analysis::Distribution standard_normal_ = analysis::Distribution::normal(0.0, 1.0);
  double mean_;
  double scale_;  // std / sqrt(hold)
  double hold_;
  std::uint64_t stream_;
};

}  // namespace

InputPtr noise_input(double mean, double std, double hold, std::uint64_t stream) {
  if (!std::isfinite(mean)) throw std::invalid_argument("noise: mean must be finite");
  if (!(std >= 0.0) || !std::isfinite(std)) {
    throw std::invalid_argument("noise: std must be finite and >= 0");
  }
  if (!(hold > 0.0) || !std::isfinite(hold)) {
    throw std::invalid_argument(
        "noise: hold (the interval one draw is held over) must be "
        "positive and finite");
  }
  return std::make_shared<NoiseInput>(mean, std, hold, stream);
}

}  // namespace simverify::simulation
