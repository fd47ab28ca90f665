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
  // The default lists the level folders only: requirements/examples/ holds packs that fail
  // on purpose (documentation), which are not part of the verdict.
  const char* env = std::getenv("SIMVERIFY_REQUIREMENTS");
  {
    std::stringstream in(env != nullptr ? env : SIMVERIFY_REQUIREMENTS_DIR);
    for (std::string part; std::getline(in, part, ':');) {
      if (!part.empty()) paths.emplace_back(part);
    }
  }
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
