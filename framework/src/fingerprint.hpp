#pragma once
// Internal: the identity of what a run planned. Shards of one run must have planned the same
// requirements (each with its conditions, quality, dependencies and component keys), the same
// fail-fast policy and come from the same simverify version; otherwise `simverify merge` would
// combine points of different questions into one verdict. Every results.json records it and
// merge refuses shards whose fingerprints differ.
#include "plan.hpp"

#include <string>

namespace simverify::framework {

// simverify's version (the CMake project version).
[[nodiscard]] const char* simverify_version();

// 16 hex digits (FNV-1a over a canonical text of the plan); the shard split (--shard) is not
// part of it. `version`: the simverify that planned it (the gate recomputes a recorded one).
[[nodiscard]] std::string plan_fingerprint(const Plan& plan, std::string_view fail_fast,
                                           std::string_view version = simverify_version());

}  // namespace simverify::framework
