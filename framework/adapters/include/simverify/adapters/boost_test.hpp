#pragma once
// simverify::boost_test — requirements as Boost.Test cases (shared Boost.Test library). Each
// requirement is a test case in the master suite labelled with its level, so
// `--run_test=@unit` selects a level, `--logger=JUNIT` writes JUnit, and depends_on becomes
// Boost.Test's own test-unit dependency. Call from init_unit_test():
//
//   bool init_unit_test() {
//     auto& registry = simverify::framework::ComponentRegistry::global();
//     my_project::register_components(registry);
//     simverify::adapters::register_boost_test_requirements({"requirements"}, registry);
//     return true;
//   }
//   int main(int argc, char** argv) {
//     return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
//   }
#include <simverify/framework/component.hpp>
#include <simverify/framework/runner.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::adapters {

// Boost.Test names allow letters, digits and '_' safely: "SOLVER-ODE4" -> "SOLVER_ODE4".
[[nodiscard]] std::string boost_test_name(std::string_view id);

// As register_gtest_requirements(), for Boost.Test. Throws std::runtime_error on invalid files.
std::size_t register_boost_test_requirements(const std::vector<std::filesystem::path>& paths,
                                             const framework::ComponentRegistry& registry,
                                             const framework::RunOptions& options = {});

}  // namespace simverify::adapters
