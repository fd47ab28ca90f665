#include "gate.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string read_text(const fs::path& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read {}", path.string(), what));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// nlohmann reports the byte where parsing stopped; users want "file:line:col".
std::runtime_error json_syntax_error(const std::string& text, const std::string& label,
                                     const Json::parse_error& e) {
  const std::size_t end = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  std::string what = e.what();
  // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..."
  if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
  return std::runtime_error(fmt::format("{}:{}:{}: not valid JSON: {}", label, line, column, what));
}

Json parse_json(const std::string& text, const std::string& label) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw json_syntax_error(text, label, e);
  }
}

CoverageFigure figure(double covered, double total) {
  return {covered, total, total > 0 ? 100.0 * covered / total : 0.0};
}

std::optional<CoverageFigure> json_figure(const Json& doc, const char* key,
                                          const std::string& label) {
  if (!doc.contains(key) || doc[key].is_null()) return std::nullopt;
  const Json& f = doc[key];
  const auto bad = [&](const std::string& what) {
    return std::runtime_error(fmt::format("{}: \"{}\": {}", label, key, what));
  };
  if (!f.is_object()) throw bad("expected an object {\"covered\", \"total\", \"percent\"}");
  const auto number = [&](const char* name) -> std::optional<double> {
    if (!f.contains(name)) return std::nullopt;
    if (!f[name].is_number() || f[name].get<double>() < 0) {
      throw bad(fmt::format("\"{}\" must be a non-negative number", name));
    }
    return f[name].get<double>();
  };
  const auto covered = number("covered");
  const auto total = number("total");
  const auto percent = number("percent");
  if (covered && total) {
    if (*covered > *total) throw bad("\"covered\" exceeds \"total\"");
    return figure(*covered, *total);
  }
  if (percent && *percent <= 100) return CoverageFigure{0, 0, *percent};
  throw bad("expected \"covered\" and \"total\", or \"percent\" between 0 and 100");
}

CoverageSummary parse_json_coverage(const std::string& text, const std::string& label) {
  const Json doc = parse_json(text, label);
  if (!doc.is_object()) throw std::runtime_error(label + ": expected a JSON object");
  CoverageSummary s{label, json_figure(doc, "line", label), json_figure(doc, "branch", label)};
  if (!s.line && !s.branch) {
    throw std::runtime_error(label + ": expected \"line\" and/or \"branch\" figures");
  }
  return s;
}

// lcov tracefile: LF/LH and BRF/BRH per source file; DA/BRDA records when the totals are
// missing (older or hand-written tracefiles).
CoverageSummary parse_lcov(const std::string& text, const std::string& label) {
  std::array<double, 4> sum{};  // lines found, hit, branches found, hit
  std::array<double, 4> record{};
  std::array<double, 4> counted{};  // from DA / BRDA
  std::array<bool, 4> seen{};
  bool any = false;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  const auto value = [&](const std::string& v) {
    try {
      std::size_t used = 0;
      const double d = std::stod(v, &used);
      if (used != v.size() || d < 0) throw std::invalid_argument("");
      return d;
    } catch (const std::exception&) {
      throw std::runtime_error(
          fmt::format("{}:{}: expected a non-negative count, got '{}'", label, number, v));
    }
  };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line == "end_of_record") {
      for (std::size_t i = 0; i < 4; ++i) sum[i] += seen[i] ? record[i] : counted[i];
      record = {};
      counted = {};
      seen = {};
      any = true;
      continue;
    }
    const auto colon = line.find(':');
    if (colon == std::string::npos) {
      throw std::runtime_error(
          fmt::format("{}:{}: expected an lcov record 'KEY:value', got '{}'", label, number, line));
    }
    const std::string key = line.substr(0, colon);
    const std::string rest = line.substr(colon + 1);
    static const std::array<const char*, 4> kTotals = {"LF", "LH", "BRF", "BRH"};
    for (std::size_t i = 0; i < 4; ++i) {
      if (key == kTotals[i]) {
        record[i] = value(rest);
        seen[i] = true;
      }
    }
    if (key == "DA") {
      const auto comma = rest.find(',');
      if (comma == std::string::npos) {
        throw std::runtime_error(fmt::format("{}:{}: expected DA:line,count", label, number));
      }
      counted[0] += 1;
      if (value(rest.substr(comma + 1, rest.find(',', comma + 1) - comma - 1)) > 0) counted[1] += 1;
    } else if (key == "BRDA") {
      const auto last = rest.rfind(',');
      if (last == std::string::npos) {
        throw std::runtime_error(
            fmt::format("{}:{}: expected BRDA:line,block,branch,taken", label, number));
      }
      const std::string taken = rest.substr(last + 1);
      counted[2] += 1;
      if (taken != "-" && value(taken) > 0) counted[3] += 1;
    }
  }
  if (!any) {
    throw std::runtime_error(label +
                             ": not a coverage file: expected ci/coverage's summary JSON, "
                             "Cobertura XML or an lcov tracefile (no 'end_of_record' line found)");
  }
  CoverageSummary s{label, figure(sum[1], sum[0]), std::nullopt};
  if (sum[2] > 0) s.branch = figure(sum[3], sum[2]);
  return s;
}

// Cobertura XML (gcovr --cobertura): the totals are attributes of the <coverage> element.
CoverageSummary parse_cobertura(const std::string& text, const std::string& label) {
  std::smatch element;
  if (!std::regex_search(text, element, std::regex("<coverage\\s[^>]*>"))) {
    throw std::runtime_error(label + ": expected a Cobertura <coverage> element");
  }
  const std::string tag = element.str();
  const auto attribute = [&](const char* name) -> std::optional<double> {
    std::smatch m;
    if (!std::regex_search(tag, m, std::regex(fmt::format("\\s{}=\"([0-9.]+)\"", name)))) {
      return std::nullopt;
    }
    return std::stod(m[1].str());
  };
  CoverageSummary s{label, std::nullopt, std::nullopt};
  const auto lc = attribute("lines-covered"), lv = attribute("lines-valid");
  const auto bc = attribute("branches-covered"), bv = attribute("branches-valid");
  if (lc && lv) s.line = figure(*lc, *lv);
  if (bc && bv && *bv > 0) s.branch = figure(*bc, *bv);
  if (!s.line) throw std::runtime_error(label + ": <coverage> lacks lines-covered/lines-valid");
  return s;
}

std::string percent_text(double p) {
  return fmt::format("{:.1f}%", p);
}

std::string figure_text(const CoverageFigure& f) {
  if (f.total > 0)
    return fmt::format("{} ({:.0f} of {:.0f})", percent_text(f.percent), f.covered, f.total);
  return percent_text(f.percent);
}

void check_coverage(GateDecision& d, const char* kind, const std::optional<double>& bar,
                    const std::optional<CoverageSummary>& coverage,
                    std::optional<CoverageFigure> CoverageSummary::*member) {
  const std::optional<CoverageFigure>* f = coverage ? &((*coverage).*member) : nullptr;
  if (!bar) {
    if (f && *f)
      d.checks.push_back(
          {true, fmt::format("{} coverage {} (no bar set)", kind, figure_text(**f))});
    return;
  }
  if (!coverage) {
    d.checks.push_back({false, fmt::format("the {} coverage bar is {} but no coverage data was "
                                           "given (--coverage FILE; Def 5.20)",
                                           kind, percent_text(*bar))});
  } else if (!*f) {
    d.checks.push_back({false, fmt::format("the {} coverage bar is {} but {} has no {} figures",
                                           kind, percent_text(*bar), coverage->file, kind)});
  } else if ((*f)->total <= 0 && (*f)->covered <= 0 && (*f)->percent <= 0 && *bar > 0) {
    d.checks.push_back({false, fmt::format("{} coverage: no {} was instrumented", kind, kind)});
  } else if ((*f)->percent + 1e-9 < *bar) {
    d.checks.push_back(
        {false, fmt::format("{} coverage {} is below the test-ready bar {} (Def 5.20)", kind,
                            figure_text(**f), percent_text(*bar))});
  } else {
    d.checks.push_back({true, fmt::format("{} coverage {} meets the bar {} (Def 5.20)", kind,
                                          figure_text(**f), percent_text(*bar))});
  }
}

// A requirement reported as passed must really have evaluated every grid point and met the
// threshold at each (or for each group when aggregated); a results file edited by hand or
// written by a buggy merge must not slip through the gate.
std::optional<std::string> inconsistency(const Json& r) {
  const auto& points = r.value("points", Json::array());
  if (!points.is_array()) return std::string("its \"points\" are not a list");
  const std::size_t grid = r.value("grid_size", points.size());
  if (points.size() != grid) {
    return fmt::format("{} of {} grid points were evaluated", points.size(), grid);
  }
  if (r.contains("groups") && r["groups"].is_array() && r.contains("aggregate")) {
    const auto& groups = r["groups"];
    for (std::size_t i = 0; i < groups.size(); ++i) {
      if (!groups[i].value("passed", false)) {
        return fmt::format("group {} failed its threshold", i);
      }
    }
    if (r["groups"].empty()) return std::string("no group was evaluated");
    return std::nullopt;
  }
  for (const auto& p : points) {
    if (!p.value("passed", false)) {
      return fmt::format("grid point {} failed its threshold", p.value("index", 0));
    }
  }
  return std::nullopt;
}

}  // namespace

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
    const auto put = [&](const char* k, const std::optional<CoverageFigure>& f) {
      cov[k] = f ? Json{{"covered", f->covered}, {"total", f->total}, {"percent", f->percent}}
                 : Json(nullptr);
    };
    put("line", coverage->line);
    put("branch", coverage->branch);
    doc["coverage"] = cov;
  }
  return doc.dump(1) + "\n";
}

CoverageSummary parse_coverage(const std::string& text, const std::string& label) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw std::runtime_error(label + ": empty coverage file");
  if (text[first] == '{') return parse_json_coverage(text, label);
  if (text[first] == '<') return parse_cobertura(text, label);
  return parse_lcov(text, label);
}

CoverageSummary read_coverage(const fs::path& path) {
  return parse_coverage(read_text(path, "coverage data"), path.string());
}

Json parse_results_document(const std::string& text, const std::string& label) {
  Json doc = parse_json(text, label);
  if (!doc.is_object() || doc.value("format", "") != "simverify.results/1") {
    throw std::runtime_error(fmt::format("{}: expected format \"simverify.results/1\"", label));
  }
  if (!doc.contains("requirements") || !doc["requirements"].is_array()) {
    throw std::runtime_error(fmt::format("{}: expected \"requirements\" to be a list", label));
  }
  return doc;
}

std::string read_results_text(const fs::path& results_dir) {
  return read_text(results_dir / "results.json",
                   "results (expected a folder written by simverify run)");
}

GateDecision evaluate_gate(const std::string& results_text, const std::string& results_label,
                           const ProjectFile& project,
                           const std::optional<CoverageSummary>& coverage) {
  const Json doc = parse_results_document(results_text, results_label);

  GateDecision d;
  d.project_file = project.file;
  d.coverage = coverage;

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
      std::optional<std::string> why;
      try {
        why = inconsistency(r);
      } catch (const Json::type_error&) {
        throw std::runtime_error(fmt::format(
            "{}: {}: \"grid_size\" must be a count and every point an object with a boolean "
            "\"passed\"",
            where(), id));
      }
      if (why) {
        d.checks.push_back({false, fmt::format("{} is marked passed but {}", id, *why)});
      } else {
        ++passed;
      }
      continue;
    }
    const std::string what = status == "skipped" ? "did not run" : status;
    d.checks.push_back({false, reason.empty() ? fmt::format("{} {}", id, what)
                                              : fmt::format("{} {}: {}", id, what, reason)});
  }
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
  check_coverage(d, "line", project.coverage.line, coverage, &CoverageSummary::line);
  check_coverage(d, "branch", project.coverage.branch, coverage, &CoverageSummary::branch);

  d.releasable = std::all_of(d.checks.begin(), d.checks.end(), [](const auto& c) { return c.ok; });
  return d;
}

GateDecision decide_gate(const fs::path& results_dir,
                         const std::optional<std::string>& coverage_file,
                         const std::optional<std::string>& config_file) {
  const fs::path results = results_dir / "results.json";
  const std::string text = read_results_text(results_dir);

  ProjectFile project;
  std::optional<fs::path> config;
  if (config_file) {
    config = *config_file;
  } else if (std::error_code ec; fs::is_regular_file(kDefaultProjectFile, ec)) {
    config = kDefaultProjectFile;
  }
  if (config) {
    auto loaded = load_project_file(*config);
    if (!loaded.ok()) {
      std::string message;
      for (const auto& e : loaded.errors) {
        if (!message.empty()) message += '\n';
        message += e.str();
      }
      throw std::runtime_error(message);
    }
    project = std::move(loaded.project);
  }
  std::optional<CoverageSummary> coverage;
  if (coverage_file) coverage = read_coverage(*coverage_file);
  return evaluate_gate(text, results.string(), project, coverage);
}

}  // namespace simverify::framework
