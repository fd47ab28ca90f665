#include <simverify/simulation/input_signal.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace simverify::simulation {
namespace {

// Right-continuous step; u' = 0 because the jump's Dirac pulse has no finite value.
class StepInput final : public InputSignal {
 public:
  StepInput(double at, double from, double to) : at_(at), from_(from), to_(to) {}
  [[nodiscard]] InputSample at(double t) const override { return {t < at_ ? from_ : to_, 0.0}; }
  [[nodiscard]] double next_jump(double t) const override {
    return t < at_ && from_ != to_ ? at_ : std::numeric_limits<double>::infinity();
  }

 private:
  double at_;
  double from_;
  double to_;
};

}  // namespace

InputPtr step_input(double at, double from, double to) {
  if (!std::isfinite(at) || !std::isfinite(from) || !std::isfinite(to)) {
    throw std::invalid_argument("step: at, from and to must be finite");
  }
  return std::make_shared<StepInput>(at, from, to);
}

}  // namespace simverify::simulation
