#pragma once
// Why a quality cannot read a measure from a point's measurement: for tests of the messages
// evaluate_measure gives a bad measure expression or a measurement it does not fit.
#include <simverify/framework/quality.hpp>

#include <stdexcept>
#include <string>

namespace simverify::framework::fakes {

// The message of the std::invalid_argument evaluate_measure throws, or "" when it reads a value.
inline std::string measure_error(const Measurement& m, const std::string& measure) {
  try {
    (void)evaluate_measure(m, measure);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace simverify::framework::fakes
