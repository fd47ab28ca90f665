#include "merge.hpp"

#include "detail/atomic_file.hpp"
#include "detail/json.hpp"
#include "detail/read_file.hpp"
#include "detail/text.hpp"
#include "fail_fast.hpp"
#include "project_file.hpp"
#include "recorded_measure.hpp"
#include "recorded_pass.hpp"
#include "release_rules.hpp"
#include "reporters/series_writer.hpp"
#include "results_file.hpp"
#include "results_folder.hpp"
#include "retally.hpp"
#include "selection.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <iterator>
#include <limits>
#include <map>
#include <set>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

struct Shard {
  fs::path dir;
  Json doc;
  int index = 1, count = 1;
};

// Ctrl-C or SIGTERM during a merge: stop before the next file, so the staging folder goes
// and `--out` stays as it was.
struct Stop {
  const std::atomic<bool>* flag = nullptr;
  void check() const {
    if (flag != nullptr && flag->load()) {
      throw MergeError("interrupted by a signal before the merged results were complete");
    }
  }
};

// A file the merged results.json names, and the shard folder it is copied from.
struct NamedFile {
  fs::path shard;
  fs::path relative;  // series/<id>/<index>-<name>.csv or figures/<id>/<k>.gv
};

// Copies only the files results.json names, each from where simverify writes it: a stray file
// in a shard (a page, a series of no requirement, a huge sparse file) is not published with
// the results. Each must be a regular file in real folders of the shard: a link would copy a
// file from outside the shard, and a FIFO or device would block or never end.
void copy_named_file(const NamedFile& file, const fs::path& to, const Stop& stop) {
  stop.check();
  fs::path at = file.shard;
  for (auto part = file.relative.begin(); part != file.relative.end(); ++part) {
    at /= *part;
    const bool last = std::next(part) == file.relative.end();
    const fs::file_type type = fs::symlink_status(at).type();
    if (type == fs::file_type::not_found) {
      throw MergeError(fmt::format("{}: missing, but {} names it",
                                   (file.shard / file.relative).string(),
                                   (file.shard / kResultsFileName).string()));
    }
    if (type != (last ? fs::file_type::regular : fs::file_type::directory)) {
      throw MergeError(fmt::format(
          "{}: is {}; a shard holds only the regular files simverify wrote, in folders",
          at.string(), type == fs::file_type::directory ? "a folder" : detail::special_kind(type)));
    }
  }
  // Read and written by our own reader and writer, not fs::copy_file: its sendfile turns a
  // full disk into "Input/output error", and a file swapped for a FIFO after the check above
  // would block it.
  const std::string content = detail::read_regular_file(at, "a shard's file");
  stop.check();
  detail::write_atomically(to / file.relative, content);
}

std::string shard_value_text(const Json* value) {
  return value == nullptr ? "absent" : detail::json_in_sentence(*value);
}

const Json* shard_key(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

Shard read_shard(const fs::path& dir) {
  Shard s;
  s.dir = dir;
  const fs::path file = dir / kResultsFileName;
  try {
    s.doc = read_results(dir);
  } catch (const ResultsError& e) {
    throw MergeError(e.what());
  }
  // merge decides the union of the points again, so a requirement cut from every shard's file
  // would vanish from the merged verdict unless the shard's own tally gives it away.
  if (const std::string cut = tally_mismatch(s.doc); !cut.empty()) {
    throw MergeError(
        fmt::format("{}: the run's summary counts {}: requirements were removed or "
                    "added after the run",
                    file.string(), cut));
  }
  if (!s.doc.contains("plan")) {
    throw MergeError(
        fmt::format("{}: no \"plan\" fingerprint (written by an older simverify? "
                    "run the shards again)",
                    file.string()));
  }
  const Json shard =
      s.doc.contains("summary") ? s.doc["summary"].value("shard", Json(nullptr)) : Json(nullptr);
  if (shard.is_string()) {
    const std::string text = shard.get<std::string>();
    if (std::sscanf(text.c_str(), "%d/%d", &s.index, &s.count) != 2 || s.index < 1 ||
        s.index > s.count) {
      throw MergeError(fmt::format("{}: shard '{}' does not read I/N", file.string(), text));
    }
  }
  return s;
}

Status parse_status(const std::string& s) {
  if (s == "passed") return Status::passed;
  if (s == "failed") return Status::failed;
  if (s == "error") return Status::error;
  return Status::skipped;
}

FailFast parse_fail_fast(const std::string& s) {
  if (s == "first") return FailFast::first;
  if (s == "none") return FailFast::none;
  return FailFast::level;
}

// Def 5.17 for the merged results, by the rules `run` and `gate` apply (release_rules.hpp): a
// narrowed run's shards merge into a narrowed run, and the levels of the project file the shards
// record must each have run. Returns the rules that fail (empty: releasable).
std::vector<std::string> release_reasons(const Json& first, const Json& requirements, bool complete,
                                         const std::string& policy) {
  const PlanRecord record = plan_record(first);
  RunFacts facts;
  facts.complete = complete;
  facts.narrowed_by = narrowing(record.level, record.filter);
  facts.fail_fast = policy;
  facts.planned = requirements.size();
  for (const Json& r : requirements) {
    const std::string status = r.value("status", "");
    if (status == "passed") ++facts.passed;
    if (status == "skipped") {
      if (complete) facts.stopped.push_back(r.value("id", "?"));
    } else if (const auto level = parse_level(r.value("level", ""))) {
      ++facts.ran_per_level[static_cast<std::size_t>(*level)];
    }
  }
  std::vector<std::string> reasons;
  std::vector<Level> levels;
  if (!record.project_file.empty()) {
    std::error_code ec;
    auto project = fs::is_regular_file(record.project_file, ec)
                       ? load_project_file(record.project_file)
                       : ProjectFileResult{};
    if (project.ok() && !project.project.file.empty()) {
      levels = project.project.levels;
    } else {
      reasons.push_back(
          fmt::format("the shards record the project file {}, which cannot be read "
                      "here: `simverify gate --config FILE` decides",
                      record.project_file));
    }
  }
  for (const auto& c : release_checks(facts, levels)) {
    if (!c.ok) reasons.push_back(c.text);
  }
  return reasons;
}

class Merger {
 public:
  Merger(std::vector<Shard> shards, Stop stop) : shards_(std::move(shards)), stop_(stop) {}

  MergeSummary merge(const fs::path& out) {
    check_shards();
    const Json& first = shards_.front().doc;
    const std::string policy =
        first.contains("summary") ? first["summary"].value("fail_fast", "level") : "level";
    FailFastGate gate(parse_fail_fast(policy));
    MergeSummary summary;
    Json requirements = Json::array();
    const std::size_t n = first["requirements"].size();
    std::optional<std::string> level;
    bool level_passed = true;
    double seconds = 0;
    for (const auto& s : shards_) {
      summary.complete = summary.complete && s.doc.value("complete", false);
      if (s.doc.contains("summary"))
        seconds = std::max(seconds, s.doc["summary"].value("seconds", 0.0));
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Json& head = first["requirements"][i];
      const std::string lvl = head.value("level", "unit");
      if (level && *level != lvl) {
        gate.level_finished(*parse_level(*level), level_passed);
        level_passed = true;
      }
      level = lvl;
      Json merged = merge_requirement(i, gate);
      const Status status = parse_status(merged["status"].get<std::string>());
      gate.requirement_finished(merged["id"].get<std::string>(), status);
      if (status != Status::passed) level_passed = false;
      switch (status) {
        case Status::passed: ++summary.passed; break;
        case Status::failed: ++summary.failed; break;
        case Status::error: ++summary.errors; break;
        case Status::skipped: ++summary.skipped; break;
      }
      requirements.push_back(std::move(merged));
    }
    summary.not_releasable = release_reasons(first, requirements, summary.complete, policy);
    summary.releasable = summary.not_releasable.empty();
    summary.narrowed_by = narrowing(plan_record(first).level, plan_record(first).filter);
    ResultsSummary tail;
    tail.passed = summary.passed;
    tail.failed = summary.failed;
    tail.errors = summary.errors;
    tail.skipped = summary.skipped;
    tail.seconds = seconds;
    tail.jobs = first.contains("summary") ? first["summary"].value("jobs", 1) : 1;
    tail.fail_fast = policy;
    for (const auto& s : shards_) tail.merged_from.push_back(s.dir.string());
    tail.releasable = summary.releasable;
    tail.complete = summary.complete;
    // The merged run is the shards' run: its start and commit are the first shard's.
    if (first.contains("summary")) {
      const Json& run = first["summary"];
      if (run.value("started", Json()).is_string())
        tail.started = run["started"].get<std::string>();
      if (run.value("commit", Json()).is_string()) tail.commit = run["commit"].get<std::string>();
    }
    std::string text = results_head(plan_record(first));
    for (std::size_t i = 0; i < requirements.size(); ++i) {
      text += i == 0 ? "\n  " : ",\n  ";
      append_value(text, requirements[i]);
    }
    text += requirements.empty() ? "],\n" : "\n ],\n";
    text += results_tail(tail);
    // Ours alone, one writer, swapped in whole (results_folder.hpp).
    ResultsFolder folder(out);
    for (const auto& file : files_) copy_named_file(file, folder.staging(), stop_);
    detail::write_atomically(folder.staging() / kResultsFileName, text);
    stop_.check();
    folder.commit();
    return summary;
  }

 private:
  void check_shards() {
    const int count = shards_.front().count;
    std::map<int, const Shard*> by_index;
    for (const auto& s : shards_) {
      if (s.count != count) {
        throw MergeError(
            fmt::format("{} is shard {}/{} but {} is shard {}/{}: all shards must "
                        "come from the same split",
                        s.dir.string(), s.index, s.count, shards_.front().dir.string(),
                        shards_.front().index, count));
      }
      auto [it, inserted] = by_index.emplace(s.index, &s);
      if (!inserted) {
        throw MergeError(fmt::format("shard {}/{} is given twice ({} and {})", s.index, count,
                                     it->second->dir.string(), s.dir.string()));
      }
    }
    std::vector<std::string> missing;
    for (int i = 1; i <= count; ++i) {
      if (!by_index.contains(i)) missing.push_back(fmt::format("{}/{}", i, count));
    }
    if (!missing.empty()) {
      std::string list;
      for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
      throw MergeError(fmt::format("missing shard(s): {}", list));
    }
    std::sort(shards_.begin(), shards_.end(),
              [](const Shard& a, const Shard& b) { return a.index < b.index; });
    // Shards of different requirement sets can share ids and grid sizes; only the plan's
    // fingerprint tells them apart.
    const Json& fingerprint = shards_.front().doc["plan"]["fingerprint"];
    for (const auto& s : shards_) {
      if (s.doc["plan"]["fingerprint"] != fingerprint) {
        throw MergeError(fmt::format(
            "{} and {} were planned from different requirements, options or simverify "
            "versions (fingerprints {} and {}); merge only shards of one run",
            shards_.front().dir.string(), s.dir.string(), fingerprint.get<std::string>(),
            s.doc["plan"]["fingerprint"].get<std::string>()));
      }
    }
    check_commits();
    const Json& reference = shards_.front().doc["requirements"];
    for (const auto& s : shards_) {
      const Json& list = s.doc["requirements"];
      bool same = list.size() == reference.size();
      for (std::size_t i = 0; same && i < list.size(); ++i) {
        same = list[i].value("id", "") == reference[i].value("id", "");
      }
      if (!same) {
        throw MergeError(
            fmt::format("{} and {} planned different requirements (different files, "
                        "--level or --filter?)",
                        shards_.front().dir.string(), s.dir.string()));
      }
    }
    for (const auto& s : shards_) check_agrees(s);
  }

  // The merged results say they verified one commit (summary.commit): shards run at two
  // commits (a stale shard folder on a shared volume, a job retried after a push) are two
  // runs. Unknown (outside a checkout, without CI_COMMIT_SHA) agrees only with unknown; a
  // commit agrees with a longer or shorter abbreviation of itself (git lengthens one that is
  // ambiguous).
  void check_commits() const {
    const auto commit = [](const Shard& s) {
      const Json* summary = shard_key(s.doc, "summary");
      const Json* c =
          summary != nullptr && summary->is_object() ? shard_key(*summary, "commit") : nullptr;
      return c != nullptr && c->is_string() ? c->get<std::string>() : std::string();
    };
    const Shard& model = shards_.front();
    const std::string want = commit(model);
    for (const auto& s : shards_) {
      const std::string have = commit(s);
      const bool same = have.empty() || want.empty()
                            ? have == want
                            : have.starts_with(want) || want.starts_with(have);
      if (!same) {
        const auto named = [](const std::string& c) {
          return c.empty() ? std::string("an unknown commit (no checkout, no CI_COMMIT_SHA)")
                           : "commit " + detail::excerpt(c);
        };
        throw MergeError(
            fmt::format("{} records {} but {} records {}: shards of one run verify one commit; run "
                        "every shard again at one commit",
                        (model.dir / kResultsFileName).string(), named(want),
                        (s.dir / kResultsFileName).string(), named(have)));
      }
    }
  }

  // The shards of one run record one definition of each requirement and one run: a shard
  // edited after the run (a loosened threshold, another grid, another policy) would otherwise
  // decide the merge alone whenever its entry is the one the merge takes.
  void check_agrees(const Shard& s) const {
    const Shard& model = shards_.front();
    const auto differ = [&](const std::string& what, const Json* have, const Json* want) {
      if ((have == nullptr && want == nullptr) || (have && want && *have == *want)) return;
      throw MergeError(fmt::format(
          "{}: {} is {} but {} records {}: shards of one run record the same (was one edited after "
          "the run?)",
          (s.dir / kResultsFileName).string(), what, shard_value_text(have),
          (model.dir / kResultsFileName).string(), shard_value_text(want)));
    };
    const auto in = [](const Json& doc, const char* part, const char* key) -> const Json* {
      const Json* object = shard_key(doc, part);
      return object != nullptr && object->is_object() ? shard_key(*object, key) : nullptr;
    };
    differ("plan.simverify", in(s.doc, "plan", "simverify"), in(model.doc, "plan", "simverify"));
    differ("summary.fail_fast", in(s.doc, "summary", "fail_fast"),
           in(model.doc, "summary", "fail_fast"));
    const Json& mine = s.doc["requirements"];
    const Json& theirs = model.doc["requirements"];
    for (std::size_t i = 0; i < mine.size(); ++i) {
      for (const char* key : kDefinitionKeys) {
        differ(fmt::format("{}'s {}", mine[i].value("id", ""), key), shard_key(mine[i], key),
               shard_key(theirs[i], key));
      }
    }
  }

  // Every point of a requirement at one position of an axis group records the same values
  // for the group's axes, in whichever shard it is: a point moved to an easier condition in
  // one shard disagrees with the others where they share a position. `head` was read by
  // retally, so its "axis_groups" span the grid.
  static void check_conditions(const Json& head, const PointsByIndex& points,
                               const std::map<std::size_t, fs::path>& owner) {
    const Json& groups = head["axis_groups"];
    std::size_t stride = 1;
    for (std::size_t g = groups.size(); g-- > 0;) {
      const auto size = groups[g]["size"].get<std::size_t>();
      std::map<std::size_t, std::size_t> first_at;  // position -> the first point's index
      for (const auto& [index, point] : points) {
        const auto [seen, fresh] = first_at.emplace((index / stride) % size, index);
        if (fresh) continue;
        const Json& other = *points.at(seen->second);
        for (const auto& axis : groups[g]["axes"]) {
          const std::string name = axis.get<std::string>();
          const Json* mine = in_condition(*point, name);
          const Json* theirs = in_condition(other, name);
          if ((mine == nullptr && theirs == nullptr) || (mine && theirs && *mine == *theirs)) {
            continue;
          }
          throw MergeError(fmt::format(
              "{}: {}: grid point {} records {}={} but grid point {} in {} records {}={} at "
              "the same grid position (edited after the run?)",
              (owner.at(index) / kResultsFileName).string(), head.value("id", ""), index, name,
              shard_value_text(mine), seen->second,
              (owner.at(seen->second) / kResultsFileName).string(), name,
              shard_value_text(theirs)));
        }
      }
      stride *= size;
    }
  }

  static const Json* in_condition(const Json& point, const std::string& axis) {
    const auto condition = point.find("condition");
    if (condition == point.end() || !condition->is_object()) return nullptr;
    const auto value = condition->find(axis);
    return value == condition->end() ? nullptr : &*value;
  }

  Json merge_requirement(std::size_t i, const FailFastGate& gate) {
    const Json& head = shards_.front().doc["requirements"][i];
    const std::string id = head.value("id", "");
    Json out = Json::object();
    // An ordered_json object grows by copying its members deeply (their keys are const): keys
    // added after "points" would copy every merged point once more. Room for all of them.
    out.get_ref<Json::object_t&>().reserve(head.size() + 16);
    for (const auto& [key, value] : head.items()) {
      if (key == "points") break;  // the streamed writer puts decided keys after the points
      out[key] = value;
    }
    std::vector<std::string> depends_on;
    for (const auto& d : head.value("depends_on", Json::array())) depends_on.push_back(d);
    std::string skip = gate.skip_reason(id, depends_on);
    double seconds = 0;
    for (const auto& s : shards_) {
      const Json& r = s.doc["requirements"][i];
      // The gate's check of a value against its measures, on each shard's points (merge
      // decides quality and passed again from the values).
      const std::string label = fmt::format("{}: {}", (s.dir / kResultsFileName).string(), id);
      try {
        if (const auto why = recorded_value_disagrees(r, label, &s.dir)) {
          throw MergeError(fmt::format("{}: {}", label, *why));
        }
      } catch (const MergeError&) {
        throw;
      } catch (const std::runtime_error& e) {
        throw MergeError(e.what());
      }
      seconds = std::max(seconds, r.value("seconds", 0.0));
      const std::string reason = r.value("reason", "");
      if (skip.empty() && r.value("status", "") == "skipped" &&
          (reason.starts_with("not run: interrupted") || !r.contains("points") ||
           r["points"].empty())) {
        if (reason.starts_with("not run: interrupted")) skip = reason;
      }
    }
    add_figures(out);
    if (!skip.empty()) {
      RequirementResult skipped;
      skipped.status = Status::skipped;
      skipped.reason = skip;
      out["points"] = Json::array();
      Json decided = decided_keys(skipped, head.contains("aggregate"));
      for (auto& [key, value] : decided.items()) {
        out[key] = std::move(value);
      }
      out["seconds"] = seconds;
      return out;
    }
    // Union of the shards' points, each exactly once.
    PointsByIndex points;  // in the shards' documents, which outlive this
    std::map<std::size_t, fs::path> owner;
    std::optional<std::string> component_error;
    for (const auto& s : shards_) {
      const Json& r = s.doc["requirements"][i];
      if (r.value("status", "") == "error" && r.value("point_count", 0) == 0 &&
          r.value("reason", "").find("not registered") != std::string::npos) {
        component_error = r.value("reason", "");
      }
      const auto listed = r.find("points");
      if (listed == r.end() || !listed->is_array()) continue;
      for (const auto& p : *listed) {
        const auto index = p.value("index", std::size_t{0});
        if (auto it = owner.find(index); it != owner.end()) {
          throw MergeError(fmt::format("point {} of {} is in both {} and {} (overlapping shards)",
                                       index, id, it->second.string(), s.dir.string()));
        }
        owner.emplace(index, s.dir);
        points.emplace(index, &p);
      }
    }
    const auto grid = head.value("grid_size", std::size_t{0});
    const bool complete = std::all_of(shards_.begin(), shards_.end(), [](const Shard& s) {
      return s.doc.value("complete", false);
    });
    if (!component_error && complete && points.size() != grid) {
      throw MergeError(
          fmt::format("{}: the shards hold {} of its {} grid points (a shard is "
                      "missing or was run with other files)",
                      id, points.size(), grid));
    }
    Json decided = retally(
        head, points, fmt::format("{}: {}", (shards_.front().dir / kResultsFileName).string(), id),
        &out["points"]);
    for (auto& [key, value] : decided.items()) out[key] = std::move(value);
    check_conditions(head, points, owner);
    for (const auto& [index, point] : points) add_series(id, *point, owner.at(index));
    if (component_error) {
      out["status"] = to_string(Status::error);
      out["reason"] = *component_error;
    }
    out["seconds"] = seconds;
    return out;
  }

  // The figures the merged entry names, from the first shard (every shard writes the same).
  void add_figures(const Json& entry) {
    const Json* figures = shard_key(entry, "figures");
    if (figures == nullptr || !figures->is_array()) return;
    const std::string id = entry.value("id", "");
    for (std::size_t k = 0; k < figures->size(); ++k) {
      add_file(shards_.front().dir, id, fmt::format("figure {}", k),
               (*figures)[k].value("file", Json()), detail::figure_file(id, k));
    }
  }

  // The series files a point names, from the shard that ran it.
  void add_series(const std::string& id, const Json& point, const fs::path& shard) {
    const Json* measures = shard_key(point, "measures");
    if (measures == nullptr || !measures->is_object()) return;
    const auto index = point.value("index", std::size_t{0});
    for (const auto& [name, recorded] : measures->items()) {
      if (!names_stored_file(recorded)) continue;
      add_file(shard, id, fmt::format("grid point {}'s series {}", index, name), recorded["file"],
               detail::series_file(id, index, name));
    }
  }

  // Only the path simverify writes, inside the shard: a name edited to another file (or to
  // ../ out of the shard) is refused, not followed.
  void add_file(const fs::path& shard, const std::string& id, const std::string& what,
                const Json& named, const fs::path& expected) {
    if (!named.is_string() || named.get<std::string>() != expected.generic_string() ||
        !stays_inside(expected)) {
      throw MergeError(fmt::format("{}: {}: its {} names the file {}, simverify writes {}",
                                   (shard / kResultsFileName).string(), id, what,
                                   shard_value_text(&named), expected.generic_string()));
    }
    files_.push_back({shard, expected});
  }

  std::vector<Shard> shards_;
  Stop stop_;
  std::vector<NamedFile> files_;  // the files the merged results.json names
};

// The folder `p` names, links followed, without a trailing separator (whose empty last part
// no shard's path shares).
fs::path real_path(const fs::path& p) {
  std::error_code ec;
  fs::path real = fs::weakly_canonical(fs::absolute(p), ec);
  if (ec) real = fs::absolute(p).lexically_normal();
  while (real.has_relative_path() && real.filename().empty()) real = real.parent_path();
  return real;
}

MergeSummary merge_checked(const std::vector<fs::path>& dirs, const fs::path& out, Stop stop) {
  std::vector<Shard> shards;
  const fs::path real_out = real_path(out);
  for (const auto& dir : dirs) {
    // Writing into a shard would replace the results being merged.
    if (std::error_code ec; fs::equivalent(out, dir, ec)) {
      throw MergeError(
          fmt::format("--out {} is one of the shards being merged; give another "
                      "folder",
                      out.string()));
    }
    // So would writing into a folder that holds one: the merged results replace it whole.
    if (const fs::path real_dir = real_path(dir);
        std::mismatch(real_out.begin(), real_out.end(), real_dir.begin(), real_dir.end()).first ==
        real_out.end()) {
      throw MergeError(fmt::format(
          "--out {} holds the shard {}; the merged results replace their folder whole, which "
          "would delete the shard: give a folder outside the shards",
          out.string(), dir.string()));
    }
    shards.push_back(read_shard(dir));
  }
  return Merger(std::move(shards), stop).merge(out);
}

}  // namespace

MergeSummary merge_results(const std::vector<fs::path>& dirs, const fs::path& out,
                           const std::atomic<bool>* stop) {
  if (dirs.empty()) throw MergeError("give the shard result folders to merge");
  try {
    return merge_checked(dirs, out, Stop{stop});
  } catch (const ResultsError& e) {
    throw MergeError(e.what());
  } catch (const OutputError& e) {
    throw MergeError(e.what());
  }
}

}  // namespace simverify::framework
