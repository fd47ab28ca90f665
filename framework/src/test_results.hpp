#pragma once
// Internal: test results in JUnit XML (CTest's --output-junit, GoogleTest's --gtest_output=xml,
// Boost.Test's --log_format=JUNIT, any JUnit writer). The tests are part of test readiness
// (lecture Def 5.20): `gate --tests` makes a run with a failed, errored or not run test not
// releasable and names the tests.
#include <filesystem>
#include <string>
#include <vector>

namespace simverify::framework {

struct TestResults {
  std::string file;
  int tests = 0;
  // <failure> or <error>, and tests that could not run (`not_run`, counted here too).
  int failed = 0;
  // CTest's status="notrun" without a skip of the test's own (SKIP_RETURN_CODE,
  // SKIP_REGULAR_EXPRESSION): a missing executable, a failed fixture. CTest fails these.
  int not_run = 0;
  // Neither passed nor failed: <skipped> (GTEST_SKIP, Boost.Test's disabled tests, CTest's
  // SKIP_*), and disabled tests (`disabled`, counted here too).
  int skipped = 0;
  // CTest's status="disabled", GoogleTest's DISABLED_ tests (status="notrun"
  // result="suppressed").
  int disabled = 0;
  // "classname.name" of each failed or errored test; "name (not run: why)" of each not run.
  std::vector<std::string> failing;
};

// Parses the text of a JUnit XML file (root <testsuites> or <testsuite>); throws
// std::runtime_error naming `label` when it is not one.
[[nodiscard]] TestResults parse_junit(const std::string& text, const std::string& label);
// Reads `path` (a regular file only) and parses it.
[[nodiscard]] TestResults read_junit(const std::filesystem::path& path);

}  // namespace simverify::framework
