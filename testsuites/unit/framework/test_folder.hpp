#pragma once
// A fresh folder under the system temp folder for one test, named by the test and the process
// (tests of one binary run in parallel under CTest), removed with its content at the end. What
// a crashed earlier process of the same id left there is removed first.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace simverify::framework::fakes {

struct TestFolder {
  explicit TestFolder(const std::string& prefix)
      : path(std::filesystem::temp_directory_path() /
             (prefix + "-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
    std::filesystem::create_directories(path);
  }
  ~TestFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TestFolder(const TestFolder&) = delete;
  TestFolder& operator=(const TestFolder&) = delete;
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
  }

  std::filesystem::path path;
};

}  // namespace simverify::framework::fakes
