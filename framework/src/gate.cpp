#include "gate.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>

namespace simverify::framework {

GateDecision decide_gate(const std::filesystem::path& results_dir,
                         const std::optional<std::string>& coverage_file,
                         const std::optional<std::string>& config_file) {
  const auto path = results_dir / "results.json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read results", path.string()));
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not valid JSON: {}", path.string(), e.what()));
  }
  if (doc.value("format", "") != "simverify.results/1") {
    throw std::runtime_error(
        fmt::format("{}: expected format \"simverify.results/1\"", path.string()));
  }
  (void)coverage_file;
  (void)config_file;

  GateDecision d;
  d.releasable = true;
  if (!doc.value("complete", false)) {
    d.releasable = false;
    d.reasons.push_back("the run is incomplete (interrupted or partial)");
  }
  int passed = 0, total = 0;
  for (const auto& r : doc.at("requirements")) {
    ++total;
    const std::string status = r.value("status", "");
    if (status == "passed") {
      ++passed;
      continue;
    }
    d.releasable = false;
    d.reasons.push_back(
        fmt::format("{} {}: {}", r.value("id", "?"), status, r.value("reason", std::string())));
  }
  if (total == 0) {
    d.releasable = false;
    d.reasons.push_back("no requirement was run");
  }
  d.reasons.insert(d.reasons.begin(), fmt::format("{} of {} requirement(s) passed", passed, total));
  return d;
}

}  // namespace simverify::framework
