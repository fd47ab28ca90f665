#pragma once
// Internal: a point's measures as the run recorded them, inline in results.json or as a series
// stored beside it (series/<id>/<index>-<name>.csv, series_writer.hpp), and the value they
// give. For the checks that do not believe a recorded value: the gate decides it again from the
// measures (recorded_pass.hpp) and against the reference file a `compare:` reads
// (source_check.hpp); `--recheck` compares a stored file with the series evaluated again
// (recheck_agreement.hpp).
#include "results_file.hpp"

#include <simverify/framework/compare.hpp>
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

// A measure's entry in results.json that names a stored series file: {"file": "series/...",
// ...}; a series the run did not store has "file": null.
[[nodiscard]] bool names_stored_file(const ResultsJson& measure);

// `relative` stays inside the folder it is taken in: no root, no empty, "." or ".." part (a
// path built from an id edited into "../x" would leave it).
[[nodiscard]] bool stays_inside(const std::filesystem::path& relative);

// A non-empty list of numbers (a vector measure, an inline reference).
[[nodiscard]] bool is_number_list(const ResultsJson& x);

// What the recorded `point` of requirement `requirement_id` gives for the quality's `measure`,
// compared with `comparison` when there is one: the runner's functions on the same doubles, so
// exactly the runner's value. Its measure is read inline, or with `results_dir` from the series
// file it names. Nothing when that cannot tell: a series the run did not store (or no
// `results_dir`), a non-finite number written as null. Otherwise the reason no value comes
// out, each something an honest run never writes: the measure missing, recorded in a shape no
// measure has, its series file unreadable or altered, one left where results.json says none
// was stored, or measures that give no value (a passed point's did).
[[nodiscard]] std::variant<std::monostate, double, std::string> value_from_recorded(
    const ResultsJson& point, const std::string& measure, const Comparison* comparison,
    const std::string& requirement_id, const std::filesystem::path* results_dir);

}  // namespace simverify::framework
