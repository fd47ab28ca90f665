// The shipped requirement packs as a GoogleTest executable: every requirement is a test
// (`--gtest_filter=unit.*` selects a level). Packs: the folders in SIMVERIFY_REQUIREMENTS
// (':'-separated), else the source tree's requirements/.
#include <simverify/adapters/gtest.hpp>
#include <simverify/components/components.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <sstream>

std::vector<std::filesystem::path> requirement_paths() {
  std::vector<std::filesystem::path> paths;
  if (const char* env = std::getenv("SIMVERIFY_REQUIREMENTS")) {
    std::stringstream in(env);
    for (std::string part; std::getline(in, part, ':');) {
      if (!part.empty()) paths.emplace_back(part);
    }
  }
  if (paths.empty()) paths.emplace_back(SIMVERIFY_REQUIREMENTS_DIR);
  return paths;
}

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  auto& registry = simverify::framework::ComponentRegistry::global();
  simverify::components::register_builtin_components(registry);
  try {
    simverify::adapters::register_gtest_requirements(requirement_paths(), registry);
  } catch (const std::exception& e) {
    std::cerr << e.what();
    return 2;
  }
  return RUN_ALL_TESTS();
}
