// Folders named `examples` are skipped when a parent folder is searched, and load when named.
#include <simverify/framework/loader.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fw = simverify::framework;
namespace fs = std::filesystem;

TEST(LoaderFolders, ExamplesRunOnlyWhenNamed) {
  fw::ComponentRegistry registry;
  fw::Component c;
  c.info = {"probe", "test double", {"x"}, {"y"}};
  c.evaluate = [](const fw::Condition&) { return fw::Measurement{}; };
  registry.add(c);
  const fs::path root = fs::temp_directory_path() / "simverify_loader_examples";
  fs::remove_all(root);
  fs::create_directories(root / "unit");
  fs::create_directories(root / "examples" / "failing");
  auto write = [](const fs::path& file, const char* id) {
    std::ofstream(file) << "requirements:\n  - id: " << id
                        << "\n    level: unit\n    component: probe\n    conditions: {x: 1}\n"
                           "    quality: {measure: y, threshold: \">= 0\"}\n";
  };
  write(root / "unit" / "a.yaml", "SHIPPED");
  write(root / "examples" / "failing" / "b.yaml", "EXAMPLE");

  const auto all = fw::load_requirements({root}, registry);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all.requirements.size(), 1u);
  EXPECT_EQ(all.requirements[0].id, "SHIPPED");

  const auto examples = fw::load_requirements({root / "examples" / "failing"}, registry);
  ASSERT_TRUE(examples.ok());
  ASSERT_EQ(examples.requirements.size(), 1u);
  EXPECT_EQ(examples.requirements[0].id, "EXAMPLE");
  fs::remove_all(root);
}
