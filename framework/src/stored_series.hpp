#pragma once
// Internal: a point's time series as the run stored it beside results.json
// (series/<id>/<index>-<name>.csv, series_writer.hpp), read back for the checks that do not
// believe results.json alone: the gate decides a value read from a series again from the file
// (recorded_pass.hpp), and `--recheck` compares the file with the series evaluated again
// (recheck_agreement.hpp).
#include "results_file.hpp"

#include <simverify/framework/measurement.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <variant>

namespace simverify::framework {

// Where the run stores a point's series.
struct StoredSeriesPlace {
  const std::filesystem::path& results_dir;
  const std::string& requirement_id;
  std::size_t index;
};

// The series `name` of the point at `place`, from the file its entry in results.json
// (`recorded`: {"file", "samples", "columns"}) names. Only the file simverify writes for that
// point is read, a regular file and not a link, and it must hold the recorded columns and
// samples; the numbers read back exactly (the writer's shortest round-trip text). Otherwise the
// reason, e.g. "out/series/A/0-s.csv:4: expected 2 numbers".
[[nodiscard]] std::variant<TimeSeries, std::string> read_stored_series(
    const StoredSeriesPlace& place, const std::string& name, const ResultsJson& recorded);

}  // namespace simverify::framework
