// junit.xml: one testsuite per level, one testcase per requirement (format page), so GitLab's
// test report and any JUnit consumer show requirements as tests.
#include <simverify/framework/reporters/reporters.hpp>

#include "detail/atomic_file.hpp"
#include "detail/encoding.hpp"
#include "point_description.hpp"
#include "tally.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {
namespace {

// Markup escaped; text XML cannot hold (not UTF-8, U+FFFE, most controls) becomes U+FFFD by
// the rule every writer follows (detail/encoding.hpp).
std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  detail::for_each_writable_character(
      text,
      [&](char32_t c, std::string_view bytes) {
        switch (c) {
          case '&': out += "&amp;"; break;
          case '<': out += "&lt;"; break;
          case '>': out += "&gt;"; break;
          case '"': out += "&quot;"; break;
          case '\'': out += "&apos;"; break;
          default: out.append(bytes);
        }
      },
      [&] { out += "\uFFFD"; });
  return out;
}

// The numbers behind the verdict, so a CI test tab shows them without opening the report:
// <properties> first (where JUnit schemas put them) for tools, one line of <system-out> last
// for people.
struct Numbers {
  std::string properties;
  std::string system_out;
};

Numbers numbers(const Requirement& r, const RequirementResult& result) {
  const Threshold& t = r.quality.threshold;
  Numbers n;
  n.properties = fmt::format(
      "      <properties>\n"
      "        <property name=\"threshold\" value=\"{}\"/>\n",
      xml_escape(t.str()));
  std::string line = fmt::format("threshold {}", t.str());
  if (result.worst) {
    const double margin = t.margin(*result.worst);
    n.properties += fmt::format(
        "        <property name=\"worst\" value=\"{:.6g}\"/>\n"
        "        <property name=\"margin\" value=\"{:+.6g}\"/>\n",
        *result.worst, margin);
    line += fmt::format(", worst {:.6g}, margin {:+.6g}", *result.worst, margin);
  }
  n.properties += fmt::format(
      "        <property name=\"grid_size\" value=\"{}\"/>\n"
      "        <property name=\"points_evaluated\" value=\"{}\"/>\n"
      "      </properties>\n",
      r.conditions.size(), result.point_count);
  line +=
      fmt::format(", {} of {} grid point(s) evaluated", result.point_count, r.conditions.size());
  n.system_out = "      <system-out>" + xml_escape(line) + "</system-out>\n";
  return n;
}

// One grid point as a testcase (--junit-points): its verdict alone, the number it gave.
struct PointCase {
  std::size_t index = 0;
  std::string condition;
  bool passed = false;
  std::optional<std::string> error;
  std::optional<double> number;  // the quality, or the measured value when aggregated
  double seconds = 0.0;
};

class JunitReporter final : public RunListener {
 public:
  JunitReporter(std::filesystem::path file, bool per_point)
      : file_(std::move(file)), per_point_(per_point) {}

  void point_finished(const Requirement& r, const PointResult& p) override {
    if (!per_point_) return;
    points_[&r].push_back({p.index, describe_point(r, p.index, false), p.passed, p.error,
                           p.quality ? p.quality : p.value, p.seconds});
  }

  void run_finished(const RunSummary& summary,
                    const std::vector<RequirementResult>& results) override {
    std::string body;
    int total = 0, failures = 0, errors = 0, skipped = 0;
    for (Level level : {Level::unit, Level::integration, Level::system}) {
      std::string cases;
      int n = 0, f = 0, e = 0, s = 0;
      double seconds = 0;
      for (const auto& result : results) {
        const Requirement& r = *result.requirement;
        if (r.level != level) continue;
        ++n;
        seconds += result.seconds;
        cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.6f}\"",
                             to_string(level), xml_escape(r.id), result.seconds);
        const std::string message = xml_escape(result.reason);
        const Numbers shown = numbers(r, result);
        cases += ">\n" + shown.properties;
        switch (result.status) {
          case Status::passed: break;
          case Status::failed:
            ++f;
            cases +=
                fmt::format("      <failure message=\"{}\" type=\"threshold\">{}{}</failure>\n",
                            message, r.title.empty() ? "" : xml_escape(r.title) + ": ", message);
            break;
          case Status::error:
            ++e;
            cases += fmt::format("      <error message=\"{}\" type=\"error\"/>\n", message);
            break;
          case Status::skipped:
            ++s;
            cases += fmt::format("      <skipped message=\"{}\"/>\n", message);
            break;
        }
        cases += shown.system_out + "    </testcase>\n";
      }
      if (n == 0) continue;
      body += fmt::format(
          "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
          "skipped=\"{}\" time=\"{:.6f}\">\n{}  </testsuite>\n",
          to_string(level), n, f, e, s, seconds, cases);
      total += n;
      failures += f;
      errors += e;
      skipped += s;
      if (per_point_) body += point_suite(level, results, total, failures, errors);
    }
    const std::string doc = fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"simverify\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
        "time=\"{:.6f}\">\n{}</testsuites>\n",
        total, failures, errors, skipped, summary.seconds, body);
    detail::write_atomically(file_, doc);
  }

 private:
  // "<level>.points": a testcase per evaluated point, named by its varying conditions. A point
  // of an aggregated requirement fails by an error or when its group fails (the group is
  // judged, the point with it).
  std::string point_suite(Level level, const std::vector<RequirementResult>& results, int& total,
                          int& failures, int& errors) const {
    std::string cases;
    int n = 0, f = 0, e = 0;
    double seconds = 0;
    for (const auto& result : results) {
      const Requirement& r = *result.requirement;
      const auto it = points_.find(&r);
      if (r.level != level || it == points_.end()) continue;
      const auto failing = points_of_failing_groups(result);
      for (const PointCase& p : it->second) {
        ++n;
        seconds += p.seconds;
        cases +=
            fmt::format("    <testcase classname=\"{}\" name=\"point {}: {}\" time=\"{:.6f}\">\n",
                        xml_escape(r.id), p.index, xml_escape(p.condition), p.seconds);
        const std::string number = p.number ? fmt::format("{:.6g}", *p.number) : "none";
        if (p.error) {
          ++e;
          cases +=
              fmt::format("      <error message=\"{}\" type=\"error\"/>\n", xml_escape(*p.error));
        } else if (const auto group = failing.find(p.index); group != failing.end()) {
          // Judged in its group, which failed: not a passing point (tally.hpp).
          ++f;
          const GroupResult& g = result.groups[group->second];
          cases += fmt::format(
              "      <failure message=\"in failing group {} ({}: {})\" type=\"group\"/>\n",
              group->second, xml_escape(r.quality.aggregate->statistic.str()),
              g.error     ? xml_escape(*g.error)
              : g.quality ? fmt::format("{:.6g} violates {}", *g.quality,
                                        xml_escape(r.quality.threshold.str()))
                          : std::string("no quality"));
        } else if (!p.passed) {
          ++f;
          cases += fmt::format("      <failure message=\"{} violates {}\" type=\"threshold\"/>\n",
                               number, xml_escape(r.quality.threshold.str()));
        }
        cases += fmt::format("      <system-out>{} = {}, threshold {}</system-out>\n",
                             xml_escape(r.quality.measure), number,
                             xml_escape(r.quality.threshold.str()));
        cases += "    </testcase>\n";
      }
    }
    if (n == 0) return {};
    total += n;
    failures += f;
    errors += e;
    return fmt::format(
        "  <testsuite name=\"{}.points\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
        "skipped=\"0\" time=\"{:.6f}\">\n{}  </testsuite>\n",
        to_string(level), n, f, e, seconds, cases);
  }

  std::filesystem::path file_;
  bool per_point_ = false;
  std::map<const Requirement*, std::vector<PointCase>> points_;
};

}  // namespace

std::unique_ptr<RunListener> make_junit_reporter(std::filesystem::path file, bool per_point) {
  return std::make_unique<JunitReporter>(std::move(file), per_point);
}

}  // namespace simverify::framework
