#pragma once
// libFuzzer's entry point, the same for every target: run the target's promises over the input
// and abort when one is broken, so libFuzzer saves the input (crash-*) for the replay test
// (fuzz_replay.hpp) to reproduce. A binary holds one LLVMFuzzerTestOneInput, so each target
// names its check in one line:
//   SIMVERIFY_LIBFUZZER_ENTRY(fuzzing::check_results, "fuzz/results.json", "results reader")
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace simverify::fuzzing {

// A target's promises for one input parsed as `file_name`: the first broken one, or nothing.
using Check = std::optional<std::string> (*)(std::string_view text, const std::string& file_name);

inline int run_libfuzzer_input(const std::uint8_t* data, std::size_t size, Check check,
                               const std::string& file_name, const char* what) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto broken = check(text, file_name)) {
    std::fprintf(stderr, "%s promise broken: %s\n", what, broken->c_str());
    std::abort();
  }
  return 0;
}

}  // namespace simverify::fuzzing

#define SIMVERIFY_LIBFUZZER_ENTRY(check, file_name, what)                               \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {   \
    return simverify::fuzzing::run_libfuzzer_input(data, size, check, file_name, what); \
  }
