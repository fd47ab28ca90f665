#include "test_results.hpp"

#include "detail/read_file.hpp"
#include "detail/xml.hpp"

#include <fmt/format.h>
#include <pugixml.hpp>

#include <stdexcept>

namespace simverify::framework {
namespace {

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
        ++out.tests;
        if (child.child("failure") || child.child("error")) {
          ++out.failed;
          const std::string classname = child.attribute("classname").as_string();
          const std::string test = child.attribute("name").as_string();
          out.failing.push_back(classname.empty() || classname == test
                                    ? test
                                    : fmt::format("{}.{}", classname, test));
        } else if (child.child("skipped")) {
          ++out.skipped;
        }
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
