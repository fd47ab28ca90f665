// The console: a line per requirement as it finishes, a summary and the verdict. On a
// terminal a progress bar with counts and ETA redraws in place, and the verdicts are coloured;
// in CI logs both stay off.
#include <simverify/framework/reporters/reporters.hpp>

#include "detail/encoding.hpp"
#include "point_description.hpp"
#include "reporters/eta_estimate.hpp"
#include "selection.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <ostream>
#include <utility>

namespace simverify::framework {
namespace {

using Clock = std::chrono::steady_clock;

// "\r" returns to the line start, "\033[K" clears to its end: a shorter line never leaves the
// tail of a longer one behind ("ETA 9ss").
constexpr const char* kRedraw = "\r\033[K";

// Text a component or program brought, as one console line: what results.json would write
// (writable_text: no byte that is not UTF-8, no character XML forbids), with its line breaks
// and tabs shown as escapes, so it cannot print a line of its own ("verdict: RELEASABLE").
std::string console_text(std::string_view text) {
  return detail::terminal_text(detail::writable_text(text));
}

// A measure in one short field: numbers as numbers, vectors and series by their size.
std::string measure_text(const Measure& m) {
  if (const auto* d = std::get_if<double>(&m)) return fmt::format("{:.6g}", *d);
  if (const auto* v = std::get_if<std::vector<double>>(&m)) {
    return fmt::format("[{} values]", v->size());
  }
  const auto& ts = std::get<TimeSeries>(m);
  return fmt::format("[series, {} samples]", ts.time.size());
}

class ConsoleReporter final : public RunListener {
 public:
  ConsoleReporter(std::ostream& out, ConsoleOptions options)
      : out_(out), options_(std::move(options)) {}

  void run_started(const RunInfo& info) override {
    total_points_ = info.points;
    start_ = Clock::now();
    eta_.emplace(info.order, options_.earlier_seconds_per_point);
    shard_ = info.shard;
    narrowed_by_ = narrowing(info.level, info.filter);
    fmt::print(out_, "simverify: {} requirement(s), {} grid point(s), {} job(s){}\n",
               info.requirements, info.points, info.jobs,
               info.shard.empty() ? "" : ", shard " + info.shard);
    if (!shard_.empty() && info.points == 0) {
      fmt::print(out_, "shard {} is empty: none of the planned grid points fall in it\n", shard_);
    }
  }

  void level_started(Level level, std::size_t requirements) override {
    if (options_.progress_bar) out_ << kRedraw;
    fmt::print(out_, "== {} ({} requirement(s))\n", to_string(level), requirements);
  }

  void requirement_started(const Requirement& r, std::size_t /*points*/) override {
    points_of_requirement_ = 0;
    if (eta_) eta_->requirement_started(r.id, seconds());
  }

  void point_finished(const Requirement& r, const PointResult& point) override {
    ++done_points_;
    ++points_of_requirement_;
    in_flight_ = 0.0;  // until the next report: the finished point is counted whole now
    if (eta_) eta_->progress(static_cast<double>(points_of_requirement_));
    if (options_.verbose) {
      if (options_.progress_bar) out_ << kRedraw;
      std::string measures;
      for (const auto& [name, m] : point.measures.entries()) {
        measures += fmt::format("{}{}={}", measures.empty() ? "" : ", ", name, measure_text(m));
      }
      std::string verdict;
      if (point.error) {
        verdict = paint(kRed, "error: " + console_text(*point.error));
      } else if (point.quality) {
        verdict = fmt::format("quality {:.6g} {}", *point.quality,
                              point.passed ? paint(kGreen, "ok") : paint(kRed, "fails"));
      } else {
        verdict = point.value ? fmt::format("value {:.6g} (judged in its group)", *point.value)
                              : "judged in its group";
      }
      // A program's measure names, errors and stderr reach this line.
      fmt::print(out_, "   {} point {} [{}]: {}{}\n", r.id, point.index,
                 console_text(describe_point(r, point.index, false)),
                 measures.empty() ? "" : console_text(measures) + "; ", verdict);
    }
    if (options_.progress_bar) draw_progress();
  }

  // The bar moves inside long points too (a 60 s simulation, a Monte Carlo study).
  void points_in_progress(const Requirement& /*r*/, double done) override {
    in_flight_ = done;
    if (eta_) eta_->progress(static_cast<double>(points_of_requirement_) + done);
    if (options_.progress_bar) draw_progress();
  }

  void requirement_finished(const RequirementResult& result) override {
    in_flight_ = 0.0;
    if (eta_) eta_->requirement_finished(result.requirement->id, seconds());
    if (options_.progress_bar) out_ << kRedraw;
    const Requirement& r = *result.requirement;
    const char* tag = "PASS";
    const char* colour = kGreen;
    switch (result.status) {
      case Status::passed: break;
      case Status::failed:
        tag = "FAIL";
        colour = kRed;
        break;
      case Status::error:
        tag = "ERROR";
        colour = kRed;
        break;
      case Status::skipped:
        tag = "SKIP";
        colour = kYellow;
        break;
    }
    std::string after;
    if (result.status == Status::skipped || result.status == Status::error ||
        result.status == Status::failed) {
      after = "  " + console_text(result.reason);
    } else if (result.worst) {
      after = fmt::format("  worst {:.6g} ({})", *result.worst, r.quality.threshold.str());
    }
    fmt::print(out_, "[{}] {}  ({} point(s), {:.2f}s){}\n",
               paint(colour, fmt::format("{:>5}", tag)), r.id, result.point_count, result.seconds,
               after);
    if (options_.progress_bar) draw_progress();
  }

  void run_finished(const RunSummary& summary,
                    const std::vector<RequirementResult>& /*results*/) override {
    if (options_.progress_bar) out_ << kRedraw;
    std::ostream& closing = options_.summary != nullptr ? *options_.summary : out_;
    fmt::print(closing, "{} passed, {} failed, {} error(s), {} skipped in {:.2f}s{}\n",
               summary.passed, summary.failed, summary.errors, summary.skipped, summary.seconds,
               summary.complete ? "" : " (interrupted: incomplete)");
    if (!shard_.empty()) {
      // A shard has no verdict: it saw only its share of the grid (Def 5.17 speaks of all).
      fmt::print(closing, "shard {}: {} passed, {} failed (merge decides releasability)\n", shard_,
                 summary.passed, summary.failed + summary.errors);
      return;
    }
    const bool selection_passed = summary.complete && summary.passed > 0 && summary.failed == 0 &&
                                  summary.errors == 0 && summary.skipped == 0;
    if (selection_passed && !narrowed_by_.empty()) {
      // Def 5.17 speaks of every requirement: the selection passed, a release is not shown.
      fmt::print(closing,
                 "verdict: {} for the requirements {} selects (a release needs all of them: "
                 "`simverify gate` on these results says NOT RELEASABLE)\n",
                 paint(kGreen, "PASSED"), narrowed_by_);
      return;
    }
    fmt::print(closing, "verdict: {}\n",
               summary.releasable ? paint(kGreen, "RELEASABLE") : paint(kRed, "NOT RELEASABLE"));
    // Every requirement passed yet the gate's rules fail (a level the project file requires did
    // not run): say which, as the gate would.
    if (!summary.releasable && selection_passed) {
      for (const auto& why : summary.not_releasable) {
        fmt::print(closing, "  FAIL {}\n", console_text(why));
      }
    }
  }

 private:
  static constexpr const char* kRed = "31";
  static constexpr const char* kGreen = "32";
  static constexpr const char* kYellow = "33";

  [[nodiscard]] std::string paint(const char* colour, const std::string& text) const {
    return options_.colour ? fmt::format("\033[{}m{}\033[0m", colour, text) : text;
  }

  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

  void draw_progress() {
    // Finished points and the parts of those under way fill the bar; the ETA weighs what
    // remains by each requirement's measured cost (eta_estimate.hpp).
    const double done = std::min(static_cast<double>(done_points_) + in_flight_,
                                 static_cast<double>(total_points_));
    const double fraction = total_points_ == 0 ? 1.0 : done / static_cast<double>(total_points_);
    const double eta = eta_ ? eta_->seconds_left(seconds()) : 0.0;
    const int width = 30;
    const int filled = static_cast<int>(fraction * width);
    const std::string under_way =
        in_flight_ > 0 ? fmt::format(" (+{:.2f} under way)", in_flight_) : std::string();
    // "~": some requirement still to run has no cost measured in an earlier run.
    fmt::print(out_, "{}[{}{}] {}/{} points{}, ETA {}{:.0f}s", kRedraw,
               std::string(static_cast<std::size_t>(filled), '#'),
               std::string(static_cast<std::size_t>(width - filled), '.'), done_points_,
               total_points_, under_way, eta_ && eta_->informed() ? "" : "~", eta);
    out_.flush();
  }

  std::ostream& out_;
  ConsoleOptions options_;
  std::string shard_;        // "I/N" of a sharded run
  std::string narrowed_by_;  // "--level unit, --filter 'X'", empty when not narrowed
  std::size_t total_points_ = 0, done_points_ = 0;
  double in_flight_ = 0.0;  // points_in_progress(): the fractions of the points under way
  std::size_t points_of_requirement_ = 0;  // finished points of the current requirement
  std::optional<EtaEstimate> eta_;
  Clock::time_point start_;
};

}  // namespace

std::unique_ptr<RunListener> make_console_reporter(std::ostream& out, ConsoleOptions options) {
  return std::make_unique<ConsoleReporter>(out, std::move(options));
}

}  // namespace simverify::framework
