#include "gate.hpp"

#include "detail/json.hpp"
#include "detail/read_file.hpp"
#include "recheck.hpp"
#include "recorded_pass.hpp"
#include "results_file.hpp"
#include "source_check.hpp"

#include <simverify/framework/loader.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <stdexcept>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string percent_text(double p) {
  return fmt::format("{:.1f}%", p);
}

// A bar as the project file gives it (80 -> "80.0%", 80.05 -> "80.05%"): never rounded, so a
// figure shown beside it compares as the numbers do.
std::string bar_text(double bar) {
  std::string text = fmt::format("{}", bar);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text + "%";
}

// Below the bar by the gate's reckoning (a hair's tolerance for a percentage computed from
// counts).
bool below_bar(double percent, double bar) {
  return percent + 1e-9 < bar;
}

}  // namespace

std::string shown_percent(double percent, const std::optional<double>& bar) {
  if (!bar) return percent_text(percent);
  // One decimal, or as many more as it takes for the figure to read on the side of the bar
  // it is on: 79.996 % against a bar of 80 % is "79.996%", never "80.0%".
  const bool below = below_bar(percent, *bar);
  for (int digits = 1; digits <= 12; ++digits) {
    const std::string text = fmt::format("{:.{}f}", percent, digits);
    if (below == (std::stod(text) < *bar)) return text + "%";
  }
  return fmt::format("{}%", percent);
}

namespace {

std::string figure_text(const CoverageFigure& f, const std::optional<double>& bar = {}) {
  if (f.total > 0) {
    return fmt::format("{} ({:.0f} of {:.0f})", shown_percent(f.percent, bar), f.covered, f.total);
  }
  return shown_percent(f.percent, bar);
}

void check_coverage(GateDecision& d, const char* kind, const std::optional<double>& bar,
                    const std::optional<CoverageSummary>& coverage,
                    std::optional<CoverageFigure> CoverageSummary::*member) {
  const std::optional<CoverageFigure>* f = coverage ? &((*coverage).*member) : nullptr;
  if (!bar) {
    if (f && *f) {
      d.checks.push_back(
          {true, fmt::format("{} coverage {} (no bar set)", kind, figure_text(**f))});
    }
    return;
  }
  if (!coverage) {
    d.checks.push_back({false, fmt::format("the {} coverage bar is {} but no coverage data was "
                                           "given (--coverage FILE)",
                                           kind, bar_text(*bar))});
  } else if (!*f) {
    d.checks.push_back({false, fmt::format("the {} coverage bar is {} but {} has no {} figures",
                                           kind, bar_text(*bar), coverage->file, kind)});
  } else if ((*f)->total <= 0 && (*f)->covered <= 0 && (*f)->percent <= 0 && *bar > 0) {
    d.checks.push_back({false, fmt::format("{} coverage: no {} was instrumented", kind, kind)});
  } else if (below_bar((*f)->percent, *bar)) {
    d.checks.push_back({false, fmt::format("{} coverage {} is below the test-ready bar {}", kind,
                                           figure_text(**f, bar), bar_text(*bar))});
  } else {
    d.checks.push_back({true, fmt::format("{} coverage {} meets the bar {}", kind,
                                          figure_text(**f, bar), bar_text(*bar))});
  }
}

// The tests are part of test readiness (Def 5.20): a failed or errored test, or one that could
// not run, blocks release and is named; a file without any test, or whose every test was
// skipped or disabled, proves nothing.
void check_tests(GateDecision& d, const TestResults& t) {
  if (t.tests == 0) {
    d.checks.push_back({false, fmt::format("{} holds no test results", t.file)});
    return;
  }
  const std::string disabled =
      t.disabled == 0 ? std::string() : fmt::format(" ({} disabled)", t.disabled);
  if (t.failed == 0 && t.skipped == t.tests) {
    d.checks.push_back({false, fmt::format("no test in {} ran: all {} were skipped{}", t.file,
                                           t.tests, disabled)});
    return;
  }
  if (t.failed == 0) {
    d.checks.push_back(
        {true, fmt::format("{} of {} test(s) passed ({}{})", t.tests - t.skipped, t.tests, t.file,
                           t.skipped > 0 ? fmt::format(", {} skipped{}", t.skipped, disabled)
                                         : std::string())});
    return;
  }
  constexpr std::size_t kNamed = 10;
  std::string names;
  for (std::size_t i = 0; i < std::min(kNamed, t.failing.size()); ++i) {
    names += (i > 0 ? ", " : "") + t.failing[i];
  }
  if (t.failing.size() > kNamed) names += fmt::format(" and {} more", t.failing.size() - kNamed);
  const int failed = t.failed - t.not_run;
  const std::string what =
      t.not_run == 0 ? fmt::format("{} of {} test(s) failed", failed, t.tests)
      : failed == 0
          ? fmt::format("{} of {} test(s) could not run", t.not_run, t.tests)
          : fmt::format("{} of {} test(s) failed and {} could not run", failed, t.tests, t.not_run);
  d.checks.push_back({false, fmt::format("{} in {}: {}", what, t.file, names)});
}

}  // namespace

std::string GateDecision::verdict() const {
  if (!releasable) return "NOT RELEASABLE";
  std::string why = "every requirement passed";
  if (tests_checked) why += coverage_checked ? ", every test passed" : " and every test passed";
  if (coverage_checked) why += " and coverage meets the bars";
  return fmt::format("RELEASABLE ({})", why);
}

std::vector<std::string> GateDecision::reasons() const {
  std::vector<std::string> out;
  for (const auto& c : checks) {
    if (!c.ok) out.push_back(c.text);
  }
  return out;
}

std::string GateDecision::to_json() const {
  Json doc;
  doc["releasable"] = releasable;
  doc["project_file"] = project_file.empty() ? Json(nullptr) : Json(project_file);
  doc["checks"] = Json::array();
  for (const auto& c : checks) doc["checks"].push_back({{"ok", c.ok}, {"text", c.text}});
  doc["coverage"] = nullptr;
  if (coverage) {
    Json cov = {{"file", coverage->file}};
    // "text": the percentage as the checks show it (shown_percent), for the report to show the
    // same.
    const auto put = [&](const char* k, const std::optional<CoverageFigure>& f,
                         const std::optional<double>& bar) {
      cov[k] = f ? Json{{"covered", f->covered},
                        {"total", f->total},
                        {"percent", f->percent},
                        {"text", shown_percent(f->percent, bar)}}
                 : Json(nullptr);
    };
    put("line", coverage->line, bars.line);
    put("branch", coverage->branch, bars.branch);
    doc["coverage"] = cov;
  }
  doc["requirements"] = Json::array();
  for (const auto& r : requirements) {
    doc["requirements"].push_back({{"id", r.id}, {"status", r.status}, {"reason", r.reason}});
  }
  // replace: a label from outside (a file name) need not be UTF-8; the JSON must be.
  return detail::dump_json(doc, 1) + "\n";
}

namespace {

GateDecision evaluate_results(const Json& doc, const std::string& results_label,
                              const ProjectFile& project,
                              const std::optional<CoverageSummary>& coverage,
                              const std::vector<TestResults>& tests, const SourceFindings& held,
                              const fs::path* results_dir = nullptr) {
  GateDecision d;
  d.project_file = project.file;
  d.coverage = coverage;
  d.bars = project.coverage;

  // Def 5.17 speaks of every requirement: a shard or an interrupted run saw only part of them.
  const Json summary = doc.value("summary", Json::object());
  if (summary.contains("shard") && summary["shard"].is_string()) {
    d.checks.push_back({false, fmt::format("the results are shard {} only; merge all shards "
                                           "before gating",
                                           summary["shard"].get<std::string>())});
  }
  d.checks.push_back(doc.value("complete", false)
                         ? GateCheck{true, "the run is complete"}
                         : GateCheck{false, "the run is incomplete (interrupted or partial)"});

  const auto& requirements = doc["requirements"];
  std::size_t passed = 0;
  std::array<std::size_t, 3> ran_per_level{};
  std::set<std::string> ids;
  for (std::size_t i = 0; i < requirements.size(); ++i) {
    const Json& r = requirements[i];
    const auto where = [&] { return fmt::format("{}: requirements[{}]", results_label, i); };
    if (!r.is_object()) throw std::runtime_error(where() + ": expected an object");
    // A results file edited by hand or written by another tool: a wrong type is bad input
    // (exit 2) that names the requirement, not an exception text from the JSON library.
    std::string id;
    std::string status;
    std::string level_name;
    std::string reason;
    try {
      id = r.value("id", "?");
      status = r.value("status", "");
      level_name = r.value("level", "");
      reason = r.value("reason", std::string());
    } catch (const Json::type_error&) {
      throw std::runtime_error(where() +
                               ": \"id\", \"status\", \"level\" and \"reason\" must be strings");
    }
    if (status != "passed" && status != "failed" && status != "error" && status != "skipped") {
      throw std::runtime_error(
          fmt::format("{}: unknown status '{}' of {} (expected passed, failed, error or skipped)",
                      where(), status, id));
    }
    if (!ids.insert(id).second) {
      d.checks.push_back({false, fmt::format("{} appears more than once in the results", id)});
    }
    if (const auto level = parse_level(level_name); level && status != "skipped") {
      ++ran_per_level[static_cast<std::size_t>(*level)];
    }
    if (status == "passed") {
      auto why = unsupported_pass(r, fmt::format("{}: {}", results_label, id), results_dir);
      if (const auto disputed = held.disputed.find(id); !why && disputed != held.disputed.end()) {
        why = disputed->second;
      }
      if (why) {
        d.checks.push_back({false, fmt::format("{} is marked passed but {}", id, *why)});
        d.requirements.push_back({id, "failed", fmt::format("marked passed but {}", *why)});
      } else {
        ++passed;
        d.requirements.push_back({id, status, reason});
      }
      continue;
    }
    d.requirements.push_back({id, status, reason});
    const std::string what = status == "skipped" ? "did not run" : status;
    d.checks.push_back({false, reason.empty() ? fmt::format("{} {}", id, what)
                                              : fmt::format("{} {}: {}", id, what, reason)});
  }
  if (const std::string cut = tally_mismatch(doc); !cut.empty()) {
    d.checks.push_back({false, fmt::format("the run's summary counts {}: requirements were "
                                           "removed or added after the run",
                                           cut)});
  }
  d.checks.insert(d.checks.end(), held.checks.begin(), held.checks.end());
  if (requirements.empty()) {
    d.checks.push_back({false, "no requirement was run"});
  } else {
    d.checks.insert(d.checks.begin(),
                    {passed == requirements.size(),
                     fmt::format("{} of {} planned requirement(s) passed at every grid point",
                                 passed, requirements.size())});
  }

  for (Level level : project.levels) {
    const auto ran = ran_per_level[static_cast<std::size_t>(level)];
    d.checks.push_back(ran > 0 ? GateCheck{true, fmt::format("level {} ran ({} requirement(s))",
                                                             to_string(level), ran)}
                               : GateCheck{false, fmt::format("level {} is required by the gate "
                                                              "but none of its requirements ran",
                                                              to_string(level))});
  }
  for (const auto& t : tests) check_tests(d, t);
  d.tests_checked = !tests.empty();
  d.coverage_checked = project.coverage.line.has_value() || project.coverage.branch.has_value();
  check_coverage(d, "line", project.coverage.line, coverage, &CoverageSummary::line);
  check_coverage(d, "branch", project.coverage.branch, coverage, &CoverageSummary::branch);

  d.releasable = std::all_of(d.checks.begin(), d.checks.end(), [](const auto& c) { return c.ok; });
  return d;
}

// The requirement files the run was made from, loaded again: --requirements, else the paths
// results.json records; nothing when it records none.
std::optional<RunSources> load_sources(const Json& doc, const fs::path& results,
                                       const GateInputs& inputs,
                                       const ComponentRegistry& registry) {
  std::vector<fs::path> paths(inputs.requirement_paths.begin(), inputs.requirement_paths.end());
  if (paths.empty()) {
    for (const auto& source : plan_record(doc).sources) {
      if (std::error_code ec; !fs::exists(source, ec)) {
        throw std::runtime_error(fmt::format(
            "{}: the run was made from {}, which cannot be read here; give the requirement "
            "files with --requirements PATH",
            results.string(), source));
      }
      paths.emplace_back(source);
    }
  }
  if (paths.empty()) return std::nullopt;
  LoadResult loaded = load_requirements(paths, registry);
  if (!loaded.ok()) throw DiagnosticsError(std::move(loaded.errors));
  RunSources sources;
  sources.requirements = std::move(loaded.requirements);
  for (const auto& p : paths) {
    sources.described += (sources.described.empty() ? "" : ", ") + p.string();
  }
  return sources;
}

// The project file the gate reads: --config; else the one beside the requirement files in
// use, found as `run` finds it (project_file_beside: this checkout's with --requirements; with
// the recorded sources theirs, not whatever results.json names: an edited "project_file" must
// not drop the bars); else, without --requirements, the recorded one. A recorded project file
// that differs from the one found is named in `differs` (a failing check): with the recorded
// sources any difference; with --requirements one recorded where none is found (another
// path is a checkout that moved, whose own settings hold).
std::optional<fs::path> gate_settings_file(const PlanRecord& record, const GateInputs& inputs,
                                           const fs::path& results,
                                           std::optional<GateCheck>& differs) {
  if (inputs.config_file) return fs::path(*inputs.config_file);
  const bool recorded_sources = inputs.requirement_paths.empty();
  auto beside = project_file_beside(recorded_sources ? record.sources : inputs.requirement_paths);
  const auto named = [](const std::string& file) { return file.empty() ? "none" : file; };
  if (recorded_sources && !record.sources.empty() &&
      (beside ? beside->string() : std::string()) != record.project_file) {
    differs = GateCheck{
        false, fmt::format("the results record the project file {}, the requirement folders they "
                           "were run from have {} (they changed since the run, or results.json "
                           "was edited)",
                           named(record.project_file), named(beside ? beside->string() : ""))};
  }
  if (beside) return beside;
  if (!recorded_sources) {
    // Given more to check against, the gate must not be weaker: a recorded file the given
    // requirements do not have beside them is not believed.
    if (!record.project_file.empty()) {
      differs = GateCheck{
          false, fmt::format("the results record the project file {}, the requirement files "
                             "given with --requirements have none beside them (give the gate "
                             "settings with --config FILE, or the folder that holds them)",
                             record.project_file)};
    }
    return std::nullopt;
  }
  if (record.project_file.empty()) return std::nullopt;
  if (std::error_code ec; !fs::is_regular_file(record.project_file, ec)) {
    throw std::runtime_error(fmt::format(
        "{}: the run used the project file {}, which cannot be read here; give the gate "
        "settings with --config FILE, or the requirements folder with --requirements DIR",
        results.string(), record.project_file));
  }
  return fs::path(record.project_file);
}

}  // namespace

GateDecision evaluate_gate(const std::string& results_text, const std::string& results_label,
                           const ProjectFile& project,
                           const std::optional<CoverageSummary>& coverage,
                           const std::vector<TestResults>& tests, const RunSources* sources) {
  const Json doc = parse_results(results_text, results_label);
  const SourceFindings held = sources ? check_sources(doc, *sources) : SourceFindings{};
  return evaluate_results(doc, results_label, project, coverage, tests, held);
}

GateDecision decide_gate(const fs::path& results_dir, const GateInputs& inputs,
                         const ComponentRegistry& registry) {
  const fs::path results = results_dir / kResultsFileName;
  const Json doc = read_results(results_dir);

  std::optional<GateCheck> project_differs;
  const std::optional<fs::path> config =
      gate_settings_file(plan_record(doc), inputs, results, project_differs);
  ProjectFile project;
  if (config) {
    auto loaded = load_project_file(*config);
    if (!loaded.ok()) throw DiagnosticsError(std::move(loaded.errors));
    project = std::move(loaded.project);
  }
  std::optional<CoverageSummary> coverage;
  if (inputs.coverage_file) coverage = read_coverage(*inputs.coverage_file);
  std::vector<TestResults> tests;
  for (const auto& file : inputs.test_files) tests.push_back(read_junit(file));
  const auto sources = load_sources(doc, results, inputs, registry);
  SourceFindings held;
  if (sources) {
    held = check_sources(doc, *sources, &results_dir);
    if (inputs.recheck > 0) {
      RecheckFindings again = recheck_points(doc, results_dir, *sources, registry, inputs.recheck,
                                             inputs.recheck_timeout_seconds, inputs.progress);
      held.disputed.merge(again.disputed);  // a source difference is named first
      held.checks.insert(held.checks.end(), again.checks.begin(), again.checks.end());
    }
  }
  if (project_differs) held.checks.push_back(*project_differs);
  GateDecision d =
      evaluate_results(doc, results.string(), project, coverage, tests, held, &results_dir);
  if (!sources) {
    // Not held to its requirements, it cannot show that they pass.
    d.checks.push_back({false, fmt::format("{} does not record the requirement files it was run "
                                           "from (an older simverify wrote it, or it was "
                                           "edited); give them with --requirements PATH",
                                           results.string())});
    d.releasable = false;
  }
  return d;
}

}  // namespace simverify::framework
