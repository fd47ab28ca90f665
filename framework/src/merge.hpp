#pragma once
// Internal: `simverify merge` — combines the results.json of N shard runs (--shard I/N) into
// one, recomputing every aggregate and the verdict from the points exactly as an unsharded run
// would (tally.hpp, fail_fast.hpp). Missing or repeated shards, overlapping points and mixed
// formats are errors (MergeError: exit 2, nothing written).
#include <atomic>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace simverify::framework {

struct MergeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct MergeSummary {
  bool releasable = false;                  // by the gate's rules (release_rules.hpp)
  std::vector<std::string> not_releasable;  // the rules that fail, as the gate words them
  std::string narrowed_by;  // the shards' --level/--filter (selection.hpp narrowing); empty: none
  bool complete = true;
  int passed = 0, failed = 0, errors = 0, skipped = 0;
};

// Reads DIR/results.json of each folder, writes OUT/results.json (atomically) and copies the
// shards' series/ beside it. When `stop` becomes true (a signal) before the end, throws
// MergeError and OUT stays as it was.
MergeSummary merge_results(const std::vector<std::filesystem::path>& dirs,
                           const std::filesystem::path& out,
                           const std::atomic<bool>* stop = nullptr);

}  // namespace simverify::framework
