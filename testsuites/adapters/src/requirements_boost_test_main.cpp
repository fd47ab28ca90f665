// The shipped requirement packs as a Boost.Test executable: `--run_test=@unit` runs a level,
// `--logger=JUNIT,all,file.xml` writes JUnit. Packs as in requirements_gtest_main.cpp.
#include <simverify/adapters/boost_test.hpp>
#include <simverify/components/components.hpp>

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <sstream>

namespace {

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

bool init_unit_test() {
  auto& registry = simverify::framework::ComponentRegistry::global();
  simverify::components::register_builtin_components(registry);
  boost::unit_test::framework::master_test_suite().p_name.value = "simverify";
  simverify::adapters::register_boost_test_requirements(requirement_paths(), registry);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
