#pragma once
// The promises of the readers of files `simverify run` wrote or a tool gave us, under arbitrary
// input: results.json (gate, merge and report read it through parse_results) and coverage data
// (lcov, Cobertura, summary JSON). A tampered or damaged file gives a clear error that names
// it, never a crash, a hang, an exception of another kind or an allocation without bound. The
// libFuzzer entry points (results_fuzz_target.cpp, coverage_fuzz_target.cpp) and the replay
// tests call these, so a failure found by one reproduces in the other.
#include <optional>
#include <string>
#include <string_view>

namespace simverify::fuzzing {

// The gate's decision over `text` as the results.json `file_name`: it decides, or refuses with
// a std::runtime_error naming the file; a decision's JSON is valid and agrees with its checks.
[[nodiscard]] std::optional<std::string> check_results(std::string_view text,
                                                       const std::string& file_name);

// parse_coverage over `text`: figures that are percentages of counts (finite, 0 <= covered <=
// total, 0 <= percent <= 100), or a std::runtime_error naming the file.
[[nodiscard]] std::optional<std::string> check_coverage(std::string_view text,
                                                        const std::string& file_name);

}  // namespace simverify::fuzzing
