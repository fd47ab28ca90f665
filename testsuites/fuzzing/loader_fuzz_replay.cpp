// The requirement loader's fuzz target (loader_fuzz_target.hpp) replayed over every shipped
// requirement file and malformed catalogue case and seeded mutations of them (fuzz_replay.hpp).
// Diagram files (the shipped ones, the examples' and the malformed diagram catalogue) and their
// mutations also go through the diagram reader's target (diagram_fuzz_target.hpp).
#include "diagram_fuzz_target.hpp"
#include "fuzz_replay.hpp"
#include "loader_fuzz_target.hpp"

#include <array>

namespace {

namespace fz = simverify::fuzzing;

// Pieces that make YAML and our format interesting: structure, anchors, special numbers,
// generator, section and block names.
// clang-format off
constexpr std::array<std::string_view, 46> kTokens = {
    ":", " ", "\n", "\n  - ", "{", "}", "[", "]", ",", "- ", "&a ", "*a", "!", "? ",
    "|", "'", "\"", "#", "\t", "\r", "\xff", ".inf", "-.inf", ".nan", "1e308", "-1", "0",
    "9999999", "[1, 2, 3]", "{}", "zip: ", "linspace: ", "seed: ", "compare: ", "tube: ",
    "reference: ", "aggregate: ", "over: [h]", "statistic: order", "threshold: ",
    "type: ", "file: ", "expr: ", "algebraic_loops: ", "{solve: newton}", ".y"};
// clang-format on

std::optional<std::string> check(std::string_view text, const std::string& file_name) {
  if (auto broken = fz::check_loader(text, file_name)) return broken;
  if (!fz::is_diagram_document(text)) return std::nullopt;
  return fz::check_diagram(text, file_name);
}

}  // namespace

int main(int argc, char** argv) {
  return fz::replay_main(argc, argv,
                         {.name = "loader",
                          .seeds = {{"requirements", {".yaml"}},
                                    {"testsuites/malformed", {".yaml"}},
                                    {"testsuites/malformed_diagrams", {".yaml"}},
                                    {"examples", {".yaml"}}},
                          .tokens = kTokens,
                          .default_file_name = fz::default_file_name(),
                          .target = check});
}
