#include "libfuzzer_entry.hpp"
#include "reader_fuzz_targets.hpp"

#include "gate.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <exception>
#include <stdexcept>

namespace simverify::fuzzing {

std::optional<std::string> check_results(std::string_view text, const std::string& file_name) {
  namespace fw = simverify::framework;
  fw::GateDecision decision;
  try {
    decision = fw::evaluate_gate(std::string(text), file_name, fw::ProjectFile{}, std::nullopt);
  } catch (const std::runtime_error& e) {
    if (!std::string_view(e.what()).starts_with(file_name)) {
      return fmt::format("an error that does not name the file: {}", e.what());
    }
    return std::nullopt;
  } catch (const std::exception& e) {
    return fmt::format("an exception other than a located error escaped: {}", e.what());
  } catch (...) {
    return std::string("an exception of unknown type escaped");
  }
  bool all_ok = !decision.checks.empty();
  for (const auto& check : decision.checks) all_ok = all_ok && check.ok;
  if (decision.releasable != all_ok) {
    return fmt::format("releasable is {} but the checks say {}", decision.releasable, all_ok);
  }
  try {
    if (nlohmann::json::parse(decision.to_json()).is_discarded()) {
      return std::string("the decision's JSON is discarded by the parser");
    }
  } catch (const std::exception& e) {
    return fmt::format("the decision's JSON is not valid JSON: {}", e.what());
  }
  return std::nullopt;
}

}  // namespace simverify::fuzzing

SIMVERIFY_LIBFUZZER_ENTRY(simverify::fuzzing::check_results, "fuzz/results.json", "results reader")
