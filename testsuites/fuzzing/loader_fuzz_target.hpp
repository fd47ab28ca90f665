#pragma once
// The loader's promises under arbitrary input, checked for one document. The libFuzzer
// entry point (LLVMFuzzerTestOneInput, same file) and the replay driver that CTest runs
// both call this, so a crash found by one reproduces in the other.
#include <optional>
#include <string>
#include <string_view>

namespace simverify::fuzzing {

// The file name the fuzzer parses its inputs as: in the malformed catalogue, so that
// `compare: {reference: {file: data/...}}` reaches the catalogue's CSV files.
[[nodiscard]] const std::string& default_file_name();

// Parses `text` as the requirement file `file_name` with the built-in components registered
// and returns the first broken promise, or nullopt. Never throws.
[[nodiscard]] std::optional<std::string> check_loader(std::string_view text,
                                                      const std::string& file_name);

}  // namespace simverify::fuzzing
