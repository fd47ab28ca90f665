// results.json: the machine-readable record of a run (format page, "Results"). Streaming: each
// point is written to a temporary file in the output folder as it arrives, so a 1e6-point grid
// never sits in memory; at the end the file is completed and renamed over results.json
// (atomic: readers see the old file or the whole new one). Keys of a requirement that are
// known only when it finished (status, worst, groups) follow its points.
#include <simverify/framework/component.hpp>
#include <simverify/framework/quality.hpp>
#include <simverify/framework/reporters/reporters.hpp>

#include "detail/atomic_file.hpp"
#include "detail/json_writer.hpp"
#include "detail/run_identity.hpp"
#include "plotted_series.hpp"
#include "reporters/series_writer.hpp"
#include "results_file.hpp"
#include "tally.hpp"

#include <fmt/format.h>

#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <variant>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using detail::append_json;
using detail::append_json_number;
using detail::append_json_string;

void append_optional(std::string& out, const std::optional<double>& x) {
  if (x) {
    append_json_number(out, *x);
  } else {
    out += "null";
  }
}

void append_optional(std::string& out, const std::optional<std::string>& s) {
  if (s) {
    append_json_string(out, *s);
  } else {
    out += "null";
  }
}

class JsonReporter final : public RunListener {
 public:
  JsonReporter(fs::path out_dir, SeriesOutput series, const ComponentRegistry* components)
      : out_dir_(std::move(out_dir)), series_(series), components_(components) {}
  ~JsonReporter() override {
    // A run that never finished (an exception) leaves no half-written results.json.
    if (file_.is_open()) {
      file_.close();
      std::error_code ec;
      fs::remove(temp_, ec);
    }
    if (held_.is_open()) held_.close();
    if (!held_path_.empty()) {
      std::error_code ec;
      fs::remove(held_path_, ec);
    }
  }
  JsonReporter(const JsonReporter&) = delete;
  JsonReporter& operator=(const JsonReporter&) = delete;

  void run_started(const RunInfo& info) override {
    info_ = info;
    // Which run this was, for `simverify diff` and the report's "compared with" line.
    started_ = detail::utc_timestamp();
    commit_ = detail::current_commit();
    fs::create_directories(out_dir_);
    temp_ = out_dir_ / fmt::format(".results.json.{}.tmp", ::getpid());
    file_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!file_) throw write_error();
    const std::string head =
        results_head({info.fingerprint, info.project_file, info.sources, info.level, info.filter});
    file_ << head;
    // With --jobs N the series files are formatted and written on N threads, at most one per
    // core (series_writer.hpp); with one job on this thread, as it reports.
    const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
    writer_.emplace(info.jobs > 1 ? std::min(static_cast<unsigned>(info.jobs), cores) : 0U);
  }

  void requirement_started(const Requirement& r, std::size_t /*points*/) override {
    std::string& o = buffer_;
    o.clear();
    o += first_requirement_ ? "\n  {" : ",\n  {";
    first_requirement_ = false;
    append_requirement_head(o, r, write_figures(r), units_of(r));
    file_ << o;
    if (!file_) throw write_error();
    first_point_ = true;
    condition_grid_ = nullptr;  // its texts are not kept for the next requirement
    // An aggregated requirement's points wait in a side file until their groups are decided:
    // a point of a failing group is written "passed": false (tally.hpp), still streaming.
    holding_ = r.quality.aggregate.has_value();
    if (holding_) {
      held_path_ = out_dir_ / fmt::format(".points.{}.tmp", ::getpid());
      held_.open(held_path_, std::ios::binary | std::ios::trunc);
      if (!held_) throw write_error();
      held_size_ = 0;
      held_marks_.clear();
    }
  }

  void point_finished(const Requirement& r, const PointResult& p) override {
    std::string& o = buffer_;
    o.clear();
    o += first_point_ ? "\n    {\"index\": " : ",\n    {\"index\": ";
    first_point_ = false;
    detail::append_formatted(o, FMT_COMPILE("{}"), p.index);
    o += ", \"condition\": {";
    append_condition(o, r.conditions, p.index);
    o += "}, \"measures\": {";
    bool first = true;
    const std::string stored = stored_series(r, p.measures);
    for (const auto& [name, measure] : p.measures.entries()) {
      if (!first) o += ", ";
      first = false;
      append_json_string(o, name);
      o += ": ";
      append_measure(o, r, p.index, name, measure, series_ == SeriesOutput::all || name == stored);
    }
    o += "}, \"value\": ";
    append_optional(o, p.value);
    o += ", \"quality\": ";
    append_optional(o, p.quality);
    o += p.passed ? ", \"passed\": true, \"error\": " : ", \"passed\": false, \"error\": ";
    append_optional(o, p.error);
    o += ", \"seconds\": ";
    detail::append_formatted(o, FMT_COMPILE("{:.6g}"), p.seconds);
    o += '}';
    if (!holding_) {
      file_ << o;
      return;
    }
    if (p.passed) {
      constexpr std::string_view kPassed = "\"passed\": true";
      held_marks_.push_back(
          {held_size_ + o.find(kPassed) + kPassed.size() - std::string_view("true").size(),
           p.index});
    }
    held_ << o;
    held_size_ += o.size();
    if (!held_) throw write_error();
  }

  void requirement_finished(const RequirementResult& result) override {
    const Requirement& r = *result.requirement;
    if (holding_) write_held_points(result);
    std::string& o = buffer_;
    o.clear();
    o += first_point_ ? "]" : "\n   ]";
    const ResultsJson decided = decided_keys(result, r.quality.aggregate.has_value());
    for (const auto& [key, value] : decided.items()) {
      o += ",\n   ";
      append_json_string(o, key);
      o += ": ";
      if (key == "groups" && !value.empty()) {  // a group per line, as points
        for (std::size_t i = 0; i < value.size(); ++i) {
          o += i == 0 ? "[\n    " : ",\n    ";
          append_value(o, value[i]);
        }
        o += "\n   ]";
      } else {
        append_value(o, value);
      }
    }
    o += fmt::format(",\n   \"seconds\": {:.6g}\n  }}", result.seconds);
    file_ << o;
    if (!file_) throw write_error();
  }

  void run_finished(const RunSummary& summary,
                    const std::vector<RequirementResult>& /*results*/) override {
    std::string o = first_requirement_ ? "],\n" : "\n ],\n";
    ResultsSummary tail;
    tail.passed = summary.passed;
    tail.failed = summary.failed;
    tail.errors = summary.errors;
    tail.skipped = summary.skipped;
    tail.seconds = summary.seconds;
    tail.jobs = info_.jobs;
    tail.shard = info_.shard;
    tail.fail_fast = info_.fail_fast.empty() ? "level" : info_.fail_fast;
    tail.releasable = summary.releasable;
    tail.complete = summary.complete;
    tail.started = started_;
    tail.commit = commit_;
    writer_->finish();  // every series file written before results.json names them
    o += results_tail(tail);
    file_ << o;
    file_.close();
    if (!file_) throw write_error();
    fs::rename(temp_, out_dir_ / kResultsFileName);
  }

 private:
  // The held points into results.json, each "true" of a point in a failing group written
  // `false, "group_passed": false`.
  void write_held_points(const RequirementResult& result) {
    holding_ = false;
    held_.close();
    if (!held_) throw write_error();
    const auto failing = points_of_failing_groups(result);
    std::ifstream in(held_path_, std::ios::binary);
    std::vector<char> chunk(1 << 16);
    std::uint64_t at = 0;
    const auto copy_to = [&](std::uint64_t end) {
      while (at < end) {
        const auto n =
            static_cast<std::streamsize>(std::min<std::uint64_t>(chunk.size(), end - at));
        if (!in.read(chunk.data(), n)) throw write_error();
        file_.write(chunk.data(), n);
        at += static_cast<std::uint64_t>(n);
      }
    };
    for (const auto& [offset, index] : held_marks_) {
      if (!failing.contains(index)) continue;
      copy_to(offset);
      in.ignore(4);  // "true"
      at += 4;
      file_ << "false, \"group_passed\": false";
    }
    copy_to(held_size_);
    in.close();
    std::error_code ec;
    fs::remove(held_path_, ec);
    held_path_.clear();
    if (!file_) throw write_error();
  }

  // The stream's failure with the reason the system gave (ENOSPC: "No space left on device").
  [[nodiscard]] std::runtime_error write_error() const {
    return std::runtime_error(fmt::format("cannot write {}: {}",
                                          (out_dir_ / kResultsFileName).string(),
                                          errno != 0 ? std::strerror(errno) : "write error"));
  }

  // The requirement's component figures as figures/<id>/<k>.gv (the report renders them).
  std::vector<FigureFile> write_figures(const Requirement& r) const {
    std::vector<FigureFile> files;
    const Component* component = components_ ? components_->find(r.component) : nullptr;
    if (component == nullptr || !component->figures) return files;
    for (const Figure& figure : component->figures(r)) {
      const fs::path relative = detail::figure_file(r.id, files.size());
      detail::write_atomically(out_dir_ / relative, figure.graphviz);
      files.push_back({figure.title, relative.generic_string()});
    }
    return files;
  }

  // What the requirement's names are measured in (component.hpp, Units).
  UnitMap units_of(const Requirement& r) const {
    const Component* component = components_ ? components_->find(r.component) : nullptr;
    if (component == nullptr || !component->units) return {};
    return component->units(r);
  }

  // SeriesOutput::quality: the one series the report plots for a point.
  std::string stored_series(const Requirement& r, const Measurement& measures) const {
    if (series_ != SeriesOutput::quality) return {};
    return plotted_series(measured_name(r.quality), measures.entries(),
                          [](const Measure& m) { return std::holds_alternative<TimeSeries>(m); });
  }

  // Scalars and vectors inline; time series beside results.json as CSV when `store`, else
  // only their size.
  void append_measure(std::string& o, const Requirement& r, std::size_t index,
                      const std::string& name, const Measure& m, bool store) {
    if (const auto* d = std::get_if<double>(&m)) {
      append_json_number(o, *d);
      return;
    }
    if (const auto* v = std::get_if<std::vector<double>>(&m)) {
      o += '[';
      for (std::size_t i = 0; i < v->size(); ++i) {
        if (i > 0) o += ", ";
        append_json_number(o, (*v)[i]);
      }
      o += ']';
      return;
    }
    const auto& ts = std::get<TimeSeries>(m);
    if (!store) {
      o += fmt::format("{{\"file\": null, \"samples\": {}, \"columns\": [", ts.time.size());
      append_column_names(o, ts);
      return;
    }
    const fs::path relative = detail::series_file(r.id, index, name);
    writer_->write(out_dir_ / relative, ts);
    o += "{\"file\": ";
    append_json_string(o, relative.generic_string());
    o += fmt::format(", \"samples\": {}, \"columns\": [", ts.time.size());
    append_column_names(o, ts);
  }

  // The point's conditions, "name": value in grid order. The text of each axis group is kept
  // for its position: in a grid of several groups only the last changes from point to point,
  // so the others are not written out again for every point.
  void append_condition(std::string& o, const Grid& grid, std::size_t index) {
    const auto& groups = grid.groups();
    if (condition_grid_ != &grid) {
      condition_texts_.assign(groups.size(), {});
      condition_grid_ = &grid;
    }
    bool first = true;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const std::size_t position = grid.position(index, g);
      GroupText& kept = condition_texts_[g];
      if (!kept.written || kept.position != position) {
        kept.text.clear();
        for (const auto& axis : groups[g].axes) {
          if (!kept.text.empty()) kept.text += ", ";
          append_json_string(kept.text, axis.name);
          kept.text += ": ";
          append_json(kept.text, axis.values[position], detail::NonFinite::as_text);
        }
        kept.position = position;
        kept.written = true;
      }
      if (kept.text.empty()) continue;
      if (!first) o += ", ";
      first = false;
      o += kept.text;
    }
  }

  static void append_column_names(std::string& o, const TimeSeries& ts) {
    for (std::size_t i = 0; i < ts.names.size(); ++i) {
      if (i > 0) o += ", ";
      append_json_string(o, ts.names[i]);
    }
    o += "]}";
  }

  fs::path out_dir_;
  SeriesOutput series_;
  std::optional<detail::SeriesWriter> writer_;  // from run_started on
  const ComponentRegistry* components_;
  fs::path temp_;
  std::ofstream file_;
  std::string buffer_;
  struct GroupText {
    bool written = false;
    std::size_t position = 0;
    std::string text;
  };
  // Of the requirement being written, per axis group of its grid.
  const Grid* condition_grid_ = nullptr;
  std::vector<GroupText> condition_texts_;
  RunInfo info_;
  std::string started_;
  std::string commit_;
  bool first_requirement_ = true;
  bool first_point_ = true;
  // The aggregated requirement being written: its points, held until its groups are decided.
  bool holding_ = false;
  fs::path held_path_;
  std::ofstream held_;
  std::uint64_t held_size_ = 0;
  // Where each passed point's "true" is in the held file, and the point's index.
  std::vector<std::pair<std::uint64_t, std::size_t>> held_marks_;
};

}  // namespace

std::unique_ptr<RunListener> make_json_reporter(fs::path out_dir, SeriesOutput series,
                                                const ComponentRegistry* components) {
  return std::make_unique<JsonReporter>(std::move(out_dir), series, components);
}

}  // namespace simverify::framework
