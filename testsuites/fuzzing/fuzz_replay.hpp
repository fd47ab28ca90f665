#pragma once
// Replays a fuzz target without libFuzzer, so every build (g++ included) tests it: over seed
// files of the checkout, then over a fixed number of seeded mutations of them. The mutations
// come from std::mt19937_64, whose sequence the standard fixes, so a run is the same on every
// platform. Each target (the requirement loader, the results and coverage readers) has a
// main() of a few lines that calls replay_main:
//   <target>_fuzz_replay --source DIR [--mutations N] [--seed S] [--failure FILE] [--max-rss-mib M]
//   <target>_fuzz_replay FILE...      (replays saved inputs, e.g. a libFuzzer crash-* file)
// A broken promise stops the run with exit 1, names the input and writes it to --failure so it
// replays with the second form; so does a crash, and so does an input after which the
// process's peak memory exceeds --max-rss-mib (default 512; under AddressSanitizer plus its
// quarantine and shadow): no input may make a reader allocate without bound.
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::fuzzing {

// The promises a target keeps for one input; `file_name` is what the input is parsed as (the
// seed's own path, so files it names resolve). Returns the first broken promise, or nothing.
using Target =
    std::function<std::optional<std::string>(std::string_view text, const std::string& file_name)>;

struct SeedFolder {
  std::string folder;                   // under --source
  std::vector<std::string> extensions;  // ".yaml"; files found recursively
};

struct Replay {
  std::string name;  // "loader": in messages and the default failure file name
  std::vector<SeedFolder> seeds;
  // Pieces that make the format interesting (structure, special numbers, keys), inserted by
  // one kind of mutation.
  std::span<const std::string_view> tokens;
  std::string default_file_name;  // what saved inputs (the second form) are parsed as
  Target target;
};

[[nodiscard]] int replay_main(int argc, char** argv, const Replay& replay);

}  // namespace simverify::fuzzing
