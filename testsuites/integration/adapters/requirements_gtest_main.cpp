// The shipped requirement packs as a GoogleTest executable: every requirement is a test
// (`--gtest_filter=unit.*` selects a level). Packs: shipped_packs.hpp.
#include <simverify/adapters/gtest.hpp>
#include <simverify/components/components.hpp>

#include "shipped_packs.hpp"

#include <gtest/gtest.h>

#include <iostream>

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  auto& registry = simverify::framework::ComponentRegistry::global();
  simverify::components::register_builtin_components(registry);
  try {
    simverify::adapters::register_gtest_requirements(simverify::adapters::shipped_pack_paths(),
                                                     registry);
  } catch (const std::exception& e) {
    std::cerr << e.what();
    return 2;
  }
  return RUN_ALL_TESTS();
}
