// The one writer of output files (simverify/core/write_file.hpp): complete content or the
// old file, never a file that is not ours.
#include "test_folder.hpp"

#include <simverify/core/write_file.hpp>

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace core = simverify::core;
namespace fs = std::filesystem;

namespace {

class WriteAtomically : public ::testing::Test {
 protected:
  const simverify::framework::fakes::TestFolder folder_{"simverify-write"};  // test_folder.hpp
  const fs::path& dir_ = folder_.path;

  static std::string text_of(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  [[nodiscard]] std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), {}));
  }
};

TEST_F(WriteAtomically, CreatesFoldersAndReplacesARegularFile) {
  const fs::path file = dir_ / "a" / "b.json";
  core::write_atomically(file, "first");
  core::write_atomically(file, "second");
  EXPECT_EQ(text_of(file), "second");
  EXPECT_EQ(std::distance(fs::directory_iterator(file.parent_path()), {}), 1);
}

TEST_F(WriteAtomically, RefusesAFifoAndAFolderAndLeavesThem) {
  const fs::path fifo = dir_ / "out.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    core::write_atomically(fifo, "x");
    FAIL() << "a FIFO was replaced";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("it is a FIFO"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_THROW(core::write_atomically(dir_, "x"), std::runtime_error);
  EXPECT_EQ(entries(), 1U) << "no temporary file left behind";
}

TEST_F(WriteAtomically, ALinkKeepsPointingAtTheNewContent) {
  const fs::path real = dir_ / "real.txt";
  core::write_atomically(real, "old");
  const fs::path link = dir_ / "link.txt";
  fs::create_symlink(real, link);
  core::write_atomically(link, "new");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(text_of(real), "new");
}

// A file that happens to carry the temporary's name (left by someone else) is not
// truncated: temporaries are created exclusively.
TEST_F(WriteAtomically, NeverTruncatesAFileNamedLikeItsTemporary) {
  const fs::path file = dir_ / "out.txt";
  const fs::path clash = dir_ / ("out.txt.tmp." + std::to_string(::getpid()) + ".0");
  core::write_atomically(clash, "someone's");
  core::write_atomically(file, "ours");
  EXPECT_EQ(text_of(clash), "someone's");
  EXPECT_EQ(text_of(file), "ours");
  EXPECT_EQ(entries(), 2U);
}

TEST_F(WriteAtomically, AFailedWriteNamesThePathAndLeavesNothing) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only folders";
  const fs::path locked = dir_ / "locked";
  fs::create_directories(locked);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  try {
    core::write_atomically(locked / "x.json", "x");
    FAIL() << "wrote into a read-only folder";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find((locked / "x.json").string()), std::string::npos);
  }
  fs::permissions(locked, fs::perms::owner_all);
  EXPECT_TRUE(fs::is_empty(locked));
}

}  // namespace
