#pragma once
// The message of the std::runtime_error a call throws: for tests of what must refuse its input
// with a message (naming file, line and column) rather than a verdict.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace simverify::framework::fakes {

// The message of the std::runtime_error `f` throws, or a test failure when it throws nothing.
template <typename F>
std::string runtime_error_of(F&& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a std::runtime_error";
  return {};
}

}  // namespace simverify::framework::fakes
