// `simverify gate DIR [--coverage FILE] [--config FILE] [--tests JUNIT]... [--requirements
// PATH]... [--recheck N|all [--timeout S]] [--json FILE]`: the releasability decision with its
// reasons (Def 5.17, 5.20).
#include "commands.hpp"
#include "detail/arguments.hpp"
#include "detail/atomic_file.hpp"
#include "detail/encoding.hpp"
#include "gate.hpp"

#include <simverify/framework/runner.hpp>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
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
  if (const auto timeout = a.option("timeout")) {
    // Without --recheck nothing is evaluated: a limit there would be a mistake that says nothing.
    if (inputs.recheck == 0) {
      throw detail::UsageError(
          "--timeout limits the points --recheck evaluates again; give --recheck too");
    }
    inputs.recheck_timeout_seconds =
        detail::parse_number(*timeout, "--timeout", kMinTimeoutSeconds, kMaxTimeoutSeconds);
  }
  inputs.progress = &std::cerr;  // beside the verdict, never in a `--json -` on stdout
  return inputs;
}

namespace {

namespace fs = std::filesystem;

// `--json FILE` replaces FILE: never a file the gate judges, or one beside them in the results
// folder (results.json, junit.xml, a series, the folder's marker), as `report --out` refuses the
// results folder. Checked before anything is decided, so nothing is written.
void check_json_path(const fs::path& json, const fs::path& results_dir, const GateInputs& inputs) {
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(fs::absolute(json, ec), ec);
  const fs::path results = fs::weakly_canonical(fs::absolute(results_dir, ec), ec);
  for (fs::path at = target; !at.empty(); at = at.parent_path()) {
    if (at == results) {
      throw std::runtime_error(fmt::format(
          "--json {}: is inside the results folder {} (it would replace what the gate judges); "
          "write the decision elsewhere, e.g. gate.json",
          json.string(), results_dir.string()));
    }
    if (at == at.parent_path()) break;
  }
  std::vector<std::string> inputs_named = inputs.test_files;
  if (inputs.coverage_file) inputs_named.push_back(*inputs.coverage_file);
  if (inputs.config_file) inputs_named.push_back(*inputs.config_file);
  inputs_named.insert(inputs_named.end(), inputs.requirement_paths.begin(),
                      inputs.requirement_paths.end());
  for (const auto& input : inputs_named) {
    if (fs::equivalent(json, input, ec)) {
      throw std::runtime_error(fmt::format(
          "--json {}: is the input {}, which it would replace; write the decision elsewhere",
          json.string(), input));
    }
  }
}

}  // namespace

int command_gate(std::span<char*> args, const ComponentRegistry& registry) {
  using namespace detail;
  const Arguments a = parse_arguments(
      args, {"coverage", "config", "json", "tests", "requirements", "recheck", "timeout"}, {});
  if (a.positional.size() != 1) throw UsageError("gate needs exactly one results folder");
  const GateInputs inputs = gate_inputs(a);
  // `--json -`: the JSON alone on standard output (for a pipe into jq), the lines on stderr.
  const auto json = a.option("json");
  const bool json_to_stdout = json && *json == "-";
  if (json && !json_to_stdout) check_json_path(*json, a.positional.front(), inputs);
  const GateDecision decision = decide_gate(a.positional.front(), inputs, registry);
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
    // The JSON is what was asked for: lost (a full disk, a closed pipe, a standard output the
    // caller closed, which only /dev/null holds now), it is an error like a --json FILE that
    // cannot be written, not a verdict.
    if (!std::cout || standard_output_closed()) {
      throw std::runtime_error(
          fmt::format("--json -: cannot write the decision to standard output{}",
                      standard_output_closed() ? ": it is closed" : ""));
    }
  } else if (json) {
    write_atomically(*json, decision.to_json());
  }
  fmt::print(console, "gate: {}\n", decision.verdict());
  return decision.releasable ? kReleasable : kNotReleasable;
}

}  // namespace simverify::framework
