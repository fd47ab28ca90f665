#include "release_rules.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace simverify::framework {

std::vector<GateCheck> release_checks(const RunFacts& facts,
                                      const std::vector<Level>& required_levels) {
  std::vector<GateCheck> checks;
  if (facts.planned == 0) {
    checks.push_back({false, "no requirement was run"});
  } else {
    checks.push_back({facts.passed == facts.planned,
                      fmt::format("{} of {} planned requirement(s) passed at every grid point",
                                  facts.passed, facts.planned)});
  }
  if (!facts.shard.empty()) {
    checks.push_back({false, fmt::format("the results are shard {} only; merge all shards "
                                         "before gating",
                                         facts.shard)});
  }
  checks.push_back(facts.complete
                       ? GateCheck{true, "the run is complete (not interrupted)"}
                       : GateCheck{false, "the run is incomplete (interrupted or partial)"});
  if (!facts.stopped.empty()) {
    // Complete, yet not every requirement ran: Def 5.17 needs each of them to pass.
    constexpr std::size_t kNamed = 5;
    std::string names;
    for (std::size_t i = 0; i < std::min(kNamed, facts.stopped.size()); ++i) {
      names += (i > 0 ? ", " : "") + facts.stopped[i];
    }
    if (facts.stopped.size() > kNamed) {
      names += fmt::format(" and {} more", facts.stopped.size() - kNamed);
    }
    checks.push_back(
        {false, fmt::format("{} of {} requirement(s) did not run, stopped by fail-fast={} or a "
                            "failed depends_on: {}; a release needs every requirement to run "
                            "and pass",
                            facts.stopped.size(), facts.planned,
                            facts.fail_fast.empty() ? "?" : facts.fail_fast, names)});
  }
  if (!facts.narrowed_by.empty()) {
    checks.push_back(
        {false, fmt::format(
                    "the run was narrowed ({}){}", facts.narrowed_by,
                    facts.narrowed_detail.empty() ? std::string() : ": " + facts.narrowed_detail)});
  }
  for (Level level : required_levels) {
    const auto ran = facts.ran_per_level[static_cast<std::size_t>(level)];
    checks.push_back(ran > 0 ? GateCheck{true, fmt::format("level {} ran ({} requirement(s))",
                                                           to_string(level), ran)}
                             : GateCheck{false, fmt::format("level {} is required by the gate "
                                                            "but none of its requirements ran",
                                                            to_string(level))});
  }
  return checks;
}

bool all_hold(const std::vector<GateCheck>& checks) {
  return std::all_of(checks.begin(), checks.end(), [](const GateCheck& c) { return c.ok; });
}

std::string why_not_run(const std::string& reason) {
  constexpr std::string_view kPrefix = "not run: ";
  return reason.starts_with(kPrefix) ? reason.substr(kPrefix.size()) : reason;
}

}  // namespace simverify::framework
