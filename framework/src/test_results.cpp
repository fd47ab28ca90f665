#include "test_results.hpp"

#include "detail/read_file.hpp"
#include "detail/text.hpp"
#include "detail/xml.hpp"

#include <fmt/format.h>
#include <pugixml.hpp>

#include <stdexcept>

namespace simverify::framework {
namespace {

std::string test_name(const pugi::xml_node& testcase) {
  const std::string classname = testcase.attribute("classname").as_string();
  const std::string test = testcase.attribute("name").as_string();
  return classname.empty() || classname == test ? test : fmt::format("{}.{}", classname, test);
}

// One <testcase> as the tool that wrote it means it. CTest writes status="run", "fail",
// "notrun" (with <skipped message="...">: its reason) or "disabled"; GoogleTest status="run"
// or "notrun" (its DISABLED_ tests: result="suppressed", older versions no result) and
// <skipped> for GTEST_SKIP; Boost.Test <skipped/> for a disabled or skipped test.
void count(const pugi::xml_node& testcase, TestResults& out) {
  ++out.tests;
  const std::string_view status = testcase.attribute("status").as_string();
  const pugi::xml_node skipped = testcase.child("skipped");
  if (testcase.child("failure") || testcase.child("error")) {
    ++out.failed;
    out.failing.push_back(test_name(testcase));
  } else if (status == "disabled" ||
             std::string_view(testcase.attribute("result").as_string()) == "suppressed" ||
             (status == "notrun" && !skipped)) {
    ++out.skipped;
    ++out.disabled;
  } else if (status == "notrun" &&
             !std::string_view(skipped.attribute("message").as_string()).starts_with("SKIP_")) {
    // CTest could not run it (its executable is missing, a fixture it needs failed) and
    // counts it as failed; only SKIP_RETURN_CODE=N and SKIP_REGULAR_EXPRESSION_MATCHED are
    // the test skipping itself.
    ++out.failed;
    ++out.not_run;
    const std::string why = skipped.attribute("message").as_string();
    out.failing.push_back(fmt::format("{} (not run{}{})", test_name(testcase),
                                      why.empty() ? "" : ": ", detail::excerpt(why)));
  } else if (skipped) {
    ++out.skipped;
  }
}

// Every <testcase> below `node`, however deeply suites nest (iteratively: a hostile file can
// nest suites arbitrarily deep).
void collect(const pugi::xml_node& root, TestResults& out) {
  std::vector<pugi::xml_node> stack{root};
  while (!stack.empty()) {
    const pugi::xml_node node = stack.back();
    stack.pop_back();
    for (const pugi::xml_node& child : node.children()) {
      const std::string_view name = child.name();
      if (name == "testsuite" || name == "testsuites") {
        stack.push_back(child);
      } else if (name == "testcase") {
        count(child, out);
      }
    }
  }
}

}  // namespace

TestResults parse_junit(const std::string& text, const std::string& label) {
  pugi::xml_document doc;
  detail::load_xml(doc, text, label);
  const pugi::xml_node root = doc.document_element();
  const std::string_view name = root.name();
  if (name != "testsuites" && name != "testsuite") {
    throw std::runtime_error(fmt::format(
        "{}: expected JUnit XML (a <testsuites> or <testsuite> root), found <{}>", label, name));
  }
  TestResults out;
  out.file = label;
  collect(doc, out);
  return out;
}

TestResults read_junit(const std::filesystem::path& path) {
  try {
    return parse_junit(detail::read_regular_file(path, "test results"), path.string());
  } catch (const detail::ReadError& e) {
    throw std::runtime_error(e.what());
  }
}

}  // namespace simverify::framework
