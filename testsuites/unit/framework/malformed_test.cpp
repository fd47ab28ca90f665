// The catalogue of malformed requirement files (testsuites/malformed/): each file, or each
// folder loaded as a whole, starts with
//   # expect: <file>:<line>:<column>: error: <part of the message>
// and loading it must report exactly that location and message, and load nothing (format
// page: every error names file, line and column; nothing runs when any file is invalid).
#include <simverify/framework/loader.hpp>

#include "fake_components.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

using namespace simverify::framework;
namespace fs = std::filesystem;

namespace {

const fs::path kCatalogue = fs::path(SIMVERIFY_SOURCE_DIR) / "testsuites" / "malformed";

struct Expectation {
  std::string file;
  int line = 0, column = 0;
  std::string message;
};

std::vector<fs::path> cases() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(kCatalogue)) {
    if (entry.path().extension() == ".yaml") out.push_back(entry.path());
    if (entry.is_directory()) {
      for (const auto& inner : fs::directory_iterator(entry.path())) {
        if (inner.path().extension() == ".yaml") {
          out.push_back(entry.path());
          break;
        }
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Expectation expectation_of(const fs::path& path) {
  fs::path file = path;
  if (fs::is_directory(path)) {
    std::vector<fs::path> yamls;
    for (const auto& e : fs::directory_iterator(path)) {
      if (e.path().extension() == ".yaml") yamls.push_back(e.path());
    }
    std::sort(yamls.begin(), yamls.end());
    file = yamls.front();
  }
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  static const std::regex kExpect(R"(# expect: ([^:]+):(\d+):(\d+): error: (.+))");
  std::smatch m;
  if (!std::regex_match(first, m, kExpect)) {
    throw std::runtime_error(file.string() + ": first line must be '# expect: ...'");
  }
  return {m[1], std::stoi(m[2]), std::stoi(m[3]), m[4]};
}

std::string name_of(const fs::path& path) {
  std::string name = path.stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class Malformed : public ::testing::TestWithParam<fs::path> {};

// Cases about what the built-in components know (a model's parameters and state count,
// what the sensitivity equations differentiate) say so on their second line; the fake
// registry cannot judge them, so only their `malformed.<name>` run through the real
// `simverify validate` checks them.
bool needs_builtin_components(const fs::path& path) {
  if (fs::is_directory(path)) return false;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  return line == "# needs: the built-in components";
}

TEST_P(Malformed, ReportsTheExpectedErrorAndLoadsNothing) {
  const Expectation expected = expectation_of(GetParam());
  const auto registry = fakes::fake_registry();
  const LoadResult loaded = load_requirements({GetParam()}, registry);
  EXPECT_FALSE(loaded.ok());
  EXPECT_TRUE(loaded.requirements.empty());
  std::string all;
  bool found = false;
  for (const auto& d : loaded.errors) {
    all += "  " + d.str() + "\n";
    found = found || (fs::path(d.location.file).filename() == expected.file &&
                      d.location.line == expected.line && d.location.column == expected.column &&
                      d.message.find(expected.message) != std::string::npos);
  }
  EXPECT_TRUE(found) << "expected " << expected.file << ":" << expected.line << ":"
                     << expected.column << ": error: ..." << expected.message << "...\ngot:\n"
                     << all;
}

// The cases the fake registry can judge; the others run only as `malformed.<name>`.
std::vector<fs::path> cases_for_the_fake_registry() {
  std::vector<fs::path> out = cases();
  std::erase_if(out, needs_builtin_components);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Catalogue, Malformed, ::testing::ValuesIn(cases_for_the_fake_registry()),
                         [](const auto& test_info) { return name_of(test_info.param); });

TEST(MalformedCatalogue, HasAtLeastFortyCases) {
  EXPECT_GE(cases().size(), 40u);
}

}  // namespace
