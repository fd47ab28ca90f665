// The shipped requirement packs as a Boost.Test executable: `--run_test=@unit` runs a level,
// `--logger=JUNIT,all,file.xml` writes JUnit. Packs: shipped_packs.hpp.
#include <simverify/adapters/boost_test.hpp>
#include <simverify/components/components.hpp>

#include "shipped_packs.hpp"

#include <boost/test/unit_test.hpp>

namespace {

bool init_unit_test() {
  auto& registry = simverify::framework::ComponentRegistry::global();
  simverify::components::register_builtin_components(registry);
  boost::unit_test::framework::master_test_suite().p_name.value = "simverify";
  simverify::adapters::register_boost_test_requirements(simverify::adapters::shipped_pack_paths(),
                                                        registry);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
