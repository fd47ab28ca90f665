// The console: a line per requirement as it finishes, a summary and the verdict. On a
// terminal a progress bar with counts and ETA redraws in place; in CI logs it stays off.
#include <simverify/framework/reporters/reporters.hpp>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <ostream>

namespace simverify::framework {
namespace {

using Clock = std::chrono::steady_clock;

class ConsoleReporter final : public RunListener {
 public:
  ConsoleReporter(std::ostream& out, ConsoleOptions options) : out_(out), options_(options) {}

  void run_started(const RunInfo& info) override {
    total_points_ = info.points;
    start_ = Clock::now();
    shard_ = info.shard;
    fmt::print(out_, "simverify: {} requirement(s), {} grid point(s), {} job(s){}\n",
               info.requirements, info.points, info.jobs,
               info.shard.empty() ? "" : ", shard " + info.shard);
    if (!shard_.empty() && info.points == 0) {
      fmt::print(out_, "shard {} is empty: none of the planned grid points fall in it\n", shard_);
    }
  }

  void level_started(Level level, std::size_t requirements) override {
    fmt::print(out_, "== {} ({} requirement(s))\n", to_string(level), requirements);
  }

  void point_finished(const Requirement& r, const PointResult& point) override {
    ++done_points_;
    if (options_.verbose) {
      fmt::print(out_, "   {} point {}: {}\n", r.id, point.index,
                 point.error ? "error: " + *point.error
                             : (point.quality ? fmt::format("{:.6g}", *point.quality) : "ok"));
    }
    if (options_.progress_bar) draw_progress();
  }

  void requirement_finished(const RequirementResult& result) override {
    if (options_.progress_bar) out_ << "\r\033[K";
    const Requirement& r = *result.requirement;
    const char* tag = "PASS";
    switch (result.status) {
      case Status::passed: tag = "PASS"; break;
      case Status::failed: tag = "FAIL"; break;
      case Status::error: tag = "ERROR"; break;
      case Status::skipped: tag = "SKIP"; break;
    }
    std::string detail;
    if (result.status == Status::skipped || result.status == Status::error ||
        result.status == Status::failed) {
      detail = "  " + result.reason;
    } else if (result.worst) {
      detail = fmt::format("  worst {:.6g} ({})", *result.worst, r.quality.threshold.str());
    }
    fmt::print(out_, "[{:>5}] {}  ({} point(s), {:.2f}s){}\n", tag, r.id, result.point_count,
               result.seconds, detail);
  }

  void run_finished(const RunSummary& summary,
                    const std::vector<RequirementResult>& /*results*/) override {
    fmt::print(out_, "{} passed, {} failed, {} error(s), {} skipped in {:.2f}s{}\n", summary.passed,
               summary.failed, summary.errors, summary.skipped, summary.seconds,
               summary.complete ? "" : " (interrupted: incomplete)");
    if (!shard_.empty()) {
      // A shard has no verdict: it saw only its share of the grid (Def 5.17 speaks of all).
      fmt::print(out_, "shard {}: {} passed, {} failed (merge decides releasability)\n", shard_,
                 summary.passed, summary.failed + summary.errors);
      return;
    }
    fmt::print(out_, "verdict: {}\n", summary.releasable ? "RELEASABLE" : "NOT RELEASABLE");
  }

 private:
  void draw_progress() {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double fraction =
        total_points_ == 0 ? 1.0
                           : static_cast<double>(done_points_) / static_cast<double>(total_points_);
    const double eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0.0;
    const int width = 30;
    const int filled = static_cast<int>(fraction * width);
    fmt::print(out_, "\r[{}{}] {}/{} points, ETA {:.0f}s",
               std::string(static_cast<std::size_t>(filled), '#'),
               std::string(static_cast<std::size_t>(width - filled), '.'), done_points_,
               total_points_, eta);
    out_.flush();
  }

  std::ostream& out_;
  ConsoleOptions options_;
  std::string shard_;  // "I/N" of a sharded run
  std::size_t total_points_ = 0, done_points_ = 0;
  Clock::time_point start_;
};

}  // namespace

std::unique_ptr<RunListener> make_console_reporter(std::ostream& out, ConsoleOptions options) {
  return std::make_unique<ConsoleReporter>(out, options);
}

}  // namespace simverify::framework
