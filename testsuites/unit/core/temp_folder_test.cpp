// core::TemporaryFolder: a private folder that goes with everything in it.
#include <simverify/core/temp_folder.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>

namespace fs = std::filesystem;
using simverify::core::TemporaryFolder;

TEST(TemporaryFolder, IsPrivateAndGoesWithItsContents) {
  const TemporaryFolder parent("simverify-temp-test-");
  fs::path made;
  {
    const TemporaryFolder folder("point-", parent.path());
    made = folder.path();
    EXPECT_EQ(made.parent_path(), parent.path());
    EXPECT_TRUE(made.filename().string().starts_with("point-"));
    EXPECT_EQ(made.filename().string().size(), std::string("point-XXXXXX").size());
    EXPECT_EQ(fs::status(made).permissions() & fs::perms::all, fs::perms::owner_all);
    fs::create_directories(made / "a" / "b");
    std::ofstream(made / "a" / "b" / "file.txt") << "left by a program";
  }
  EXPECT_FALSE(fs::exists(made));
  EXPECT_TRUE(fs::is_empty(parent.path()));
}

TEST(TemporaryFolder, AParentThatIsNoFolderIsAnErrorNamingIt) {
  const TemporaryFolder parent("simverify-temp-test-");
  std::optional<std::string> message;
  try {
    const TemporaryFolder folder("x-", parent.path() / "missing");
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  ASSERT_TRUE(message);
  EXPECT_EQ(*message, "cannot create a temporary folder in " +
                          (parent.path() / "missing").string() + ": No such file or directory");
}
