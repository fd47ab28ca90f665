#pragma once
// Internal: the rules of Def 5.17 that a run's own record decides, in one place. `run` applies
// them to its verdict, exit code and results.json `releasable`; `merge` to the merged results;
// `gate` to results.json, before it holds the results to their files, tests and coverage. So
// none of them can call releasable what another calls not.
//
// Def 5.17: releasable iff every requirement meets its threshold. "Every" is every requirement
// of the files (a run narrowed by --level or --filter shows only some), every planned one ran
// (a shard, an interrupted run or one stopped by fail-fast did not), and the levels the project
// file requires each ran at least one requirement.
#include <simverify/framework/requirement.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace simverify::framework {

// One criterion of the decision and whether it holds; `text` is a sentence for humans.
struct GateCheck {
  bool ok = false;
  std::string text;
};

// What the rules read of a run.
struct RunFacts {
  std::string shard;        // "I/N" when these are one shard's results; empty otherwise
  bool complete = true;     // false: interrupted
  std::string narrowed_by;  // narrowing(level, filter), e.g. "--filter 'A-*'"; empty: none
  // Appended to the narrowing sentence (the gate: "it planned 1 of the 2 requirement(s) in
  // FILE"); empty: nothing.
  std::string narrowed_detail;
  std::size_t planned = 0;  // requirements in the results
  std::size_t passed = 0;   // of them, passed (as the caller believes them)
  std::string fail_fast;    // the policy ("level", "first", "none")
  // Requirements that did not run because fail-fast or a failed dependency stopped them.
  std::vector<std::string> stopped;
  std::array<std::size_t, 3> ran_per_level{};  // not skipped, per Level
};

// The checks, in the order the gate prints them: requirements passed, shard, complete,
// stopped by fail-fast, narrowed, then each level `required_levels` names.
[[nodiscard]] std::vector<GateCheck> release_checks(const RunFacts& facts,
                                                    const std::vector<Level>& required_levels);

// True when every check holds.
[[nodiscard]] bool all_hold(const std::vector<GateCheck>& checks);

// A skipped requirement's reason without the runner's "not run: " prefix, for a sentence that
// already says it did not run.
[[nodiscard]] std::string why_not_run(const std::string& reason);

}  // namespace simverify::framework
