// `simverify gate DIR [--coverage FILE] [--config FILE] [--tests JUNIT]... [--requirements
// PATH]... [--json FILE]`: the releasability decision with its reasons (Def 5.17, 5.20).
#include "commands.hpp"
#include "detail/arguments.hpp"
#include "detail/atomic_file.hpp"
#include "detail/encoding.hpp"
#include "gate.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <iostream>
#include <limits>

namespace simverify::framework {

GateInputs gate_inputs(const detail::Arguments& a) {
  GateInputs inputs{a.option("coverage"), a.option("config"), a.all("tests"),
                    a.all("requirements")};
  for (const auto& path : inputs.requirement_paths) {
    if (path.empty()) throw detail::UsageError("--requirements needs a file or folder");
  }
  if (const auto recheck = a.option("recheck"); recheck && *recheck == "all") {
    inputs.recheck = std::numeric_limits<std::size_t>::max();
  } else if (recheck) {
    constexpr int kMostPoints = 1'000'000'000;
    try {
      inputs.recheck = static_cast<std::size_t>(detail::parse_int(*recheck, "", 1, kMostPoints));
    } catch (const detail::UsageError&) {
      throw detail::UsageError(fmt::format(
          "--recheck must be all or a whole number from 1 to {}, got '{}'", kMostPoints, *recheck));
    }
  }
  inputs.progress = &std::cerr;  // beside the verdict, never in a `--json -` on stdout
  return inputs;
}

int command_gate(std::span<char*> args, const ComponentRegistry& registry) {
  using namespace detail;
  const Arguments a =
      parse_arguments(args, {"coverage", "config", "json", "tests", "requirements", "recheck"}, {});
  if (a.positional.size() != 1) throw UsageError("gate needs exactly one results folder");
  const GateDecision decision = decide_gate(a.positional.front(), gate_inputs(a), registry);
  // `--json -`: the JSON alone on standard output (for a pipe into jq), the lines on stderr.
  const auto json = a.option("json");
  const bool json_to_stdout = json && *json == "-";
  std::ostream& console = json_to_stdout ? std::cerr : std::cout;
  fmt::print(console, "gate settings: {}\n",
             decision.project_file.empty() ? "defaults (no project file: no level or coverage bar)"
                                           : terminal_text(decision.project_file));
  // Check texts quote the results (ids, statuses, reasons): a tampered file's escape sequences
  // and line breaks are shown, not obeyed.
  for (const auto& check : decision.checks) {
    fmt::print(console, "  {} {}\n", check.ok ? "ok  " : "FAIL", terminal_text(check.text));
  }
  if (json_to_stdout) {
    std::cout << decision.to_json() << std::flush;
    // The JSON is what was asked for: lost (a full disk, a closed pipe), it is an error like a
    // --json FILE that cannot be written, not a verdict.
    if (!std::cout) {
      throw std::runtime_error("--json -: cannot write the decision to standard output");
    }
  } else if (json) {
    write_atomically(*json, decision.to_json());
  }
  fmt::print(console, "gate: {}\n", decision.verdict());
  return decision.releasable ? kReleasable : kNotReleasable;
}

}  // namespace simverify::framework
