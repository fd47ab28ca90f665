#pragma once
// Internal: coverage data, the one reader of every format `gate` and `report` accept (Def 5.20:
// the test-ready bars are checked against these figures; the HTML report shows the ones the
// gate read, never its own reading).
//  - ci/coverage's summary JSON: {"line": {"covered", "total", "percent"}, "branch": {...}}
//  - an lcov tracefile (.info): LF/LH and BRF/BRH per file, DA/BRDA when totals are missing
//  - a Cobertura XML report (gcovr --cobertura): totals as <coverage> attributes
#include <filesystem>
#include <optional>
#include <string>

namespace simverify::framework {

struct CoverageFigure {
  double covered = 0;
  double total = 0;
  double percent = 0;  // 100 * covered / total, or as given when only a percentage is known
};

struct CoverageSummary {
  std::string file;
  std::optional<CoverageFigure> line;
  std::optional<CoverageFigure> branch;
};

// Parses the text of a coverage file of any of the formats above (told apart by their first
// character). Throws std::runtime_error naming `label` (and the line for lcov).
[[nodiscard]] CoverageSummary parse_coverage(const std::string& text, const std::string& label);
// Reads `path` (a regular file only: a FIFO or device is refused, never read) and parses it.
[[nodiscard]] CoverageSummary read_coverage(const std::filesystem::path& path);

}  // namespace simverify::framework
