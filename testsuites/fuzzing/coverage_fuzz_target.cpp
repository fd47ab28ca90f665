#include "libfuzzer_entry.hpp"
#include "reader_fuzz_targets.hpp"

#include "coverage.hpp"

#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <stdexcept>

namespace simverify::fuzzing {
namespace {

std::optional<std::string> check_figure(const std::optional<framework::CoverageFigure>& figure,
                                        const char* what) {
  if (!figure) return std::nullopt;
  const auto& [covered, total, percent] = *figure;
  if (!std::isfinite(covered) || !std::isfinite(total) || !std::isfinite(percent) || covered < 0 ||
      covered > total || percent < 0 || percent > 100) {
    return fmt::format("{} coverage {} of {} = {}%: not a percentage of counts", what, covered,
                       total, percent);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_coverage(std::string_view text, const std::string& file_name) {
  framework::CoverageSummary summary;
  try {
    summary = framework::parse_coverage(std::string(text), file_name);
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
  if (auto broken = check_figure(summary.line, "line")) return broken;
  return check_figure(summary.branch, "branch");
}

}  // namespace simverify::fuzzing

SIMVERIFY_LIBFUZZER_ENTRY(simverify::fuzzing::check_coverage, "fuzz/coverage.info",
                          "coverage reader")
