#pragma once
// Internal: what a point evaluated again (`gate --recheck`, recheck.hpp) must agree with in
// results.json: its value, the measure its quality reads, and the CSV files of its time series.
// The report plots those files; a tampered CSV would show a curve the run never computed
// while every recorded number still agrees.
#include "results_file.hpp"

#include <simverify/framework/measurement.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace simverify::framework {

// Equal, both NaN, or within the re-evaluation's relative tolerance of the larger magnitude
// and of `scale` (a series column's largest magnitude: a curve that crosses zero differs there
// by what it differs elsewhere, not relatively).
[[nodiscard]] bool agrees_again(double recorded, double again, double scale = 0.0);

// Why the point's recorded `measures` (its object in results.json) disagree with `again`,
// naming the first difference; nothing when they agree. Compares what the verdict and the
// report's plots rest on: the measure the quality reads (`read`), and each series stored as a
// CSV (size, columns, and the file, read from `results_dir`: only the file simverify writes for
// that point, a regular file, no link). Other measures decide nothing and may vary from run to
// run (a program's own timing), so they are not compared.
[[nodiscard]] std::optional<std::string> measures_disagreement(
    const std::filesystem::path& results_dir, const std::string& requirement_id, std::size_t index,
    const ResultsJson& measures, const Measurement& again, std::string_view read);

}  // namespace simverify::framework
