// The results reader's fuzz target (reader_fuzz_targets.hpp) replayed over the results.json
// files of the test fixtures and seeded mutations of them (fuzz_replay.hpp).
#include "fuzz_replay.hpp"
#include "reader_fuzz_targets.hpp"

#include <array>

namespace {

// JSON structure, special and huge numbers, escapes (lone surrogates, U+FFFE), and the
// keys and values the readers decide on.
// clang-format off
constexpr std::array<std::string_view, 36> kTokens = {
    "{", "}", "[", "]", ",", ":", "\"", "\n", "null", "true", "false", "0", "-1", "1e308",
    "-1e999", "1.5", "\"nan\"", "\"inf\"", "\\u0000", "\\ud800", "\\ufffe", "\xff", "\xc0\x80",
    "[[[[[[[[", "{\"a\": {\"a\": {", "\"status\": \"passed\", ", "\"status\": \"failed\", ",
    "\"releasable\": true, ", "\"complete\": false, ", "\"points\": [], ", "\"groups\": [], ",
    "\"level\": \"system\", ", "\"shard\": \"1/2\", ", "\"worst\": ", "\"requirements\": [], ",
    "\"format\": \"simverify.results/1\", "};
// clang-format on

}  // namespace

int main(int argc, char** argv) {
  namespace fz = simverify::fuzzing;
  return fz::replay_main(
      argc, argv,
      {.name = "results",
       .seeds = {{"testsuites/reports/fixtures", {".json"}}, {"testsuites/approval", {".json"}}},
       .tokens = kTokens,
       .default_file_name = "fuzz-input/results.json",
       .target = fz::check_results});
}
