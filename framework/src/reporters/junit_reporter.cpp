// junit.xml: one testsuite per level, one testcase per requirement (format page), so GitLab's
// test report and any JUnit consumer show requirements as tests.
#include <simverify/framework/reporters/reporters.hpp>

#include "detail/atomic_file.hpp"

#include <fmt/format.h>

namespace simverify::framework {
namespace {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters even when escaped.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

class JunitReporter final : public RunListener {
 public:
  explicit JunitReporter(std::filesystem::path file) : file_(std::move(file)) {}

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
        switch (result.status) {
          case Status::passed: cases += "/>\n"; break;
          case Status::failed:
            ++f;
            cases += fmt::format(
                ">\n      <failure message=\"{}\" type=\"threshold\">{}{}"
                "</failure>\n    </testcase>\n",
                message, r.title.empty() ? "" : xml_escape(r.title) + ": ", message);
            break;
          case Status::error:
            ++e;
            cases += fmt::format(
                ">\n      <error message=\"{}\" type=\"error\"/>\n"
                "    </testcase>\n",
                message);
            break;
          case Status::skipped:
            ++s;
            cases += fmt::format(">\n      <skipped message=\"{}\"/>\n    </testcase>\n", message);
            break;
        }
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
    }
    const std::string doc = fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"simverify\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
        "time=\"{:.6f}\">\n{}</testsuites>\n",
        total, failures, errors, skipped, summary.seconds, body);
    detail::write_atomically(file_, doc);
  }

 private:
  std::filesystem::path file_;
};

}  // namespace

std::unique_ptr<RunListener> make_junit_reporter(std::filesystem::path file) {
  return std::make_unique<JunitReporter>(std::move(file));
}

}  // namespace simverify::framework
