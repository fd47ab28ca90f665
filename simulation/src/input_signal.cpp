#include <simverify/simulation/input_signal.hpp>

namespace simverify::simulation {
namespace {

class ConstantInput final : public InputSignal {
 public:
  explicit ConstantInput(double value) : value_(value) {}
  [[nodiscard]] InputSample at(double /*t*/) const override { return {value_, 0.0}; }

 private:
  double value_;
};

}  // namespace

InputPtr constant_input(double value) {
  return std::make_shared<ConstantInput>(value);
}

}  // namespace simverify::simulation
