#pragma once
// simverify::gtest — requirements as GoogleTest tests. Each loaded requirement becomes one test
// (testing::RegisterTest), suite = its level, name = its id with the characters GoogleTest
// filters treat specially replaced; it passes iff the requirement meets its threshold, and a
// failure names the worst grid point. Call from your own main() before RUN_ALL_TESTS():
//
//   int main(int argc, char** argv) {
//     testing::InitGoogleTest(&argc, argv);
//     auto& registry = simverify::framework::ComponentRegistry::global();
//     my_project::register_components(registry);
//     simverify::adapters::register_gtest_requirements({"requirements"}, registry);
//     return RUN_ALL_TESTS();
//   }
//
// CTest sees each requirement through gtest_discover_tests().
#include <simverify/framework/component.hpp>
#include <simverify/framework/runner.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::adapters {

// "SOLVER-ODE4.ORDER" -> "SOLVER_ODE4_ORDER": '-' ':' '.' '*' '?' would change the meaning
// of --gtest_filter.
[[nodiscard]] std::string gtest_test_name(std::string_view id);

// Loads the files (as `simverify run` does) and registers their requirements in plan order
// (levels, then depends_on). A requirement whose dependency failed earlier in this process is
// skipped ("blocked by <id>"). Throws std::runtime_error listing every diagnostic when a file
// is invalid. Returns the number of tests registered. `options` apply to each requirement
// (jobs, timeout, isolation); fail-fast is per test, so it is ignored.
std::size_t register_gtest_requirements(const std::vector<std::filesystem::path>& paths,
                                        const framework::ComponentRegistry& registry,
                                        const framework::RunOptions& options = {});

}  // namespace simverify::adapters
