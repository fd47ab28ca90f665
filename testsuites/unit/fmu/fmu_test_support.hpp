#pragma once
// The test FMUs (testsuites/fmus) by FMI version and name.
#include <simverify/fmu/fmu.hpp>

#include <filesystem>
#include <string>

namespace simverify::fmu::testing {

inline std::filesystem::path test_fmu(int version, const std::string& name) {
  return std::filesystem::path(SIMVERIFY_TEST_FMU_DIR) / ("fmi" + std::to_string(version)) /
         (name + ".fmu");
}

inline std::filesystem::path broken_fmu(const std::string& name) {
  return std::filesystem::path(SIMVERIFY_TEST_FMU_DIR) / "broken" / (name + ".fmu");
}

}  // namespace simverify::fmu::testing
