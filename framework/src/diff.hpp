#pragma once
// Internal: `simverify diff BASE NEW` — what changed between two runs' results.json: the
// requirements whose status changed, new and removed ones, the worst quality and the margin
// (signed distance to the threshold, positive on the passing side, Def 5.17) per requirement
// and, on request, per grid point. A merge-request pipeline runs it against the default
// branch's results: a requirement that passed before and fails or errs now is a regression.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {

// Which run a results folder came from, as far as results.json records it.
struct RunIdentity {
  std::string path;     // the results.json read
  std::string commit;   // summary.commit, empty when not recorded
  std::string started;  // summary.started (UTC, ISO 8601), empty when not recorded
};

// One number in both runs; nothing where a run has no such number (absent, NaN, error).
struct Change {
  std::optional<double> base;
  std::optional<double> now;
  [[nodiscard]] std::optional<double> delta() const;
};

// A grid point, matched between the runs by its condition (indices move when a grid grows).
struct PointChange {
  std::string condition;  // the condition as compact JSON
  std::optional<std::size_t> base_index, new_index;
  std::optional<bool> base_passed, new_passed;
  Change value;   // the point's number (measure or compared distance)
  Change margin;  // only where the point is judged alone (not aggregated)
  [[nodiscard]] bool status_changed() const { return base_passed != new_passed; }
};

struct RequirementChange {
  // regressed: passed before, failed or error now; fixed: not passed before, passed now;
  // changed: any other status change; added/removed: in one run only; same: same status.
  enum class Kind { regressed, fixed, changed, added, removed, same };
  Kind kind = Kind::same;
  std::string id, title, level;
  std::string base_status, new_status;        // empty when absent from that run
  std::string base_threshold, new_threshold;  // as written, e.g. ">= 3.9"
  Change worst;
  Change margin;
  std::size_t points_changed = 0;   // points whose number or verdict differs
  std::vector<PointChange> points;  // those points, when asked for (--points)
};

struct ResultsDiff {
  RunIdentity base, now;
  std::vector<RequirementChange> requirements;  // regressions first, then fixed, changed,
                                                // added, removed, then by margin delta
  [[nodiscard]] bool regressed() const;
  [[nodiscard]] std::size_t count(RequirementChange::Kind kind) const;
  // {"format": "simverify.diff/1", "base": {...}, "new": {...}, "regressed", "counts",
  //  "requirements": [...]} (docs/reports.md).
  [[nodiscard]] std::string to_json() const;
  // The console form: one line per requirement that changed, a summary line last.
  [[nodiscard]] std::string to_text(bool with_points) const;
};

[[nodiscard]] const char* to_string(RequirementChange::Kind kind);

// Compares two results.json texts; throws std::runtime_error naming the file (and line and
// column for broken JSON) when either is not a simverify.results/1 document.
[[nodiscard]] ResultsDiff diff_results(const std::string& base_text, const std::string& base_label,
                                       const std::string& new_text, const std::string& new_label,
                                       bool with_points);

// Reads DIR/results.json of both folders.
[[nodiscard]] ResultsDiff diff_result_folders(const std::filesystem::path& base,
                                              const std::filesystem::path& now, bool with_points);

}  // namespace simverify::framework
