// The requirement loader's fuzz target (loader_fuzz_target.hpp) replayed over every shipped
// requirement file and malformed catalogue case and seeded mutations of them (fuzz_replay.hpp).
#include "fuzz_replay.hpp"
#include "loader_fuzz_target.hpp"

#include <array>

namespace {

// Pieces that make YAML and our format interesting: structure, anchors, special numbers,
// generator and section names.
// clang-format off
constexpr std::array<std::string_view, 40> kTokens = {
    ":", " ", "\n", "\n  - ", "{", "}", "[", "]", ",", "- ", "&a ", "*a", "!", "? ",
    "|", "'", "\"", "#", "\t", "\r", "\xff", ".inf", "-.inf", ".nan", "1e308", "-1", "0",
    "9999999", "[1, 2, 3]", "{}", "zip: ", "linspace: ", "seed: ", "compare: ", "tube: ",
    "reference: ", "aggregate: ", "over: [h]", "statistic: order", "threshold: "};
// clang-format on

}  // namespace

int main(int argc, char** argv) {
  namespace fz = simverify::fuzzing;
  return fz::replay_main(
      argc, argv,
      {.name = "loader",
       .seeds = {{"requirements", {".yaml"}}, {"testsuites/malformed", {".yaml"}}},
       .tokens = kTokens,
       .default_file_name = fz::default_file_name(),
       .target = fz::check_loader});
}
