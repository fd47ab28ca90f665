#pragma once
// Internal: test results in JUnit XML (CTest's --output-junit, GoogleTest's --gtest_output=xml,
// any JUnit writer). The tests are part of test readiness (lecture Def 5.20): `gate --tests`
// makes a run with a failed or errored test not releasable and names the tests.
#include <filesystem>
#include <string>
#include <vector>

namespace simverify::framework {

struct TestResults {
  std::string file;
  int tests = 0;
  int failed = 0;                    // <failure> or <error>
  int skipped = 0;                   // <skipped> (not run: neither passed nor failed)
  std::vector<std::string> failing;  // "classname.name" of each failed or errored test
};

// Parses the text of a JUnit XML file (root <testsuites> or <testsuite>); throws
// std::runtime_error naming `label` when it is not one.
[[nodiscard]] TestResults parse_junit(const std::string& text, const std::string& label);
// Reads `path` (a regular file only) and parses it.
[[nodiscard]] TestResults read_junit(const std::filesystem::path& path);

}  // namespace simverify::framework
