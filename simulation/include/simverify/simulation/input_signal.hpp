#pragma once
// Input signals u(.) (Def 4.1): each gives its value and time derivative at any t.
#include <simverify/simulation/model.hpp>

#include <memory>

namespace simverify::simulation {

class InputSignal {
 public:
  virtual ~InputSignal() = default;
  [[nodiscard]] virtual InputSample at(double t) const = 0;
};

using InputPtr = std::shared_ptr<const InputSignal>;

[[nodiscard]] InputPtr constant_input(double value);

}  // namespace simverify::simulation
