// The coverage reader's fuzz target (reader_fuzz_targets.hpp) replayed over one file of each
// format it reads (coverage_seeds/, the report fixtures' summary) and seeded mutations of them
// (fuzz_replay.hpp).
#include "fuzz_replay.hpp"
#include "reader_fuzz_targets.hpp"

#include <array>

namespace {

// The three formats' structure and keys, and numbers a count must not be.
// clang-format off
constexpr std::array<std::string_view, 34> kTokens = {
    "{", "}", "[", "]", ",", ":", "\"", "\n", "<", ">", "=", "\"covered\": ", "\"total\": ",
    "\"percent\": ", "LF:", "LH:", "BRF:", "BRH:", "DA:1,", "BRDA:1,0,0,", "end_of_record\n",
    "SF:a.cpp\n", " lines-covered=\"", " lines-valid=\"", " branches-covered=\"",
    " branches-valid=\"", "1e999", "-1", "nan", "inf", "1.2.3", "99999999999999999999", "0",
    "<coverage "};
// clang-format on

}  // namespace

int main(int argc, char** argv) {
  namespace fz = simverify::fuzzing;
  return fz::replay_main(
      argc, argv,
      {.name = "coverage",
       .seeds = {{"testsuites/fuzzing/coverage_seeds", {".info", ".xml", ".json"}},
                 {"testsuites/reports/fixtures", {".json"}}},
       .tokens = kTokens,
       .default_file_name = "fuzz-input/coverage.info",
       .target = fz::check_coverage});
}
