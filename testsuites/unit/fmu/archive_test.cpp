// Unpacking an FMU's archive: what is written is counted, not what the zip headers declare, so
// a zip bomb (an entry that inflates far beyond its declared size) is stopped at once and
// leaves nothing behind.
#include "archive.hpp"

#include <simverify/fmu/fmu.hpp>

#include "fmu_test_support.hpp"
#include "forged_zip.hpp"
#include "test_folder.hpp"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

using simverify::fmu::Fmu;
using simverify::fmu::FmuError;
using simverify::fmu::detail::ZipArchive;
using simverify::fmu::testing::ForgedEntry;
using simverify::fmu::testing::test_fmu;
using simverify::fmu::testing::write_forged_zip;

namespace {

namespace fs = std::filesystem;

const char* const kCoSimulationDescription =
    R"(<fmiModelDescription fmiVersion="2.0" modelName="m" guid="{0}">)"
    R"(<CoSimulation modelIdentifier="m"/></fmiModelDescription>)";

// A fresh folder of this test's own (test_folder.hpp) with an empty `out` folder in it.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& name) : folder_("simverify-archive-test-" + name) {
    fs::create_directories(out());
  }
  [[nodiscard]] const fs::path& path() const { return folder_.path; }
  [[nodiscard]] fs::path out() const { return folder_.path / "out"; }
  [[nodiscard]] bool out_is_empty() const {
    return fs::recursive_directory_iterator(out()) == fs::recursive_directory_iterator();
  }

 private:
  simverify::framework::fakes::TestFolder folder_;
};

ForgedEntry entry(std::string name, std::string data,
                  std::optional<std::uint64_t> declared_size = std::nullopt,
                  std::optional<std::uint32_t> declared_crc = std::nullopt) {
  return {std::move(name), std::move(data), declared_size, declared_crc};
}

// 'path' (append, not operator+: g++ 12 reports a false -Wrestrict for "'" + std::string).
std::string quoted(const fs::path& path) {
  return std::string("'").append(path.string()).append("'");
}

std::string extract_error(const fs::path& zip, const fs::path& into,
                          std::optional<unsigned long long> limit = std::nullopt) {
  try {
    if (limit) {
      ZipArchive(zip).extract_to(into, {*limit, "the test's"});
    } else {
      ZipArchive(zip).extract_to(into);  // the default limit
    }
  } catch (const FmuError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

// The tester's bomb, scaled down: 8 MiB of zeros (about 8 KiB deflated) whose headers declare
// 1000 bytes. Unpacking stops within the first 64 KiB read and names the entry.
TEST(FmuArchive, StopsAnEntryThatInflatesBeyondItsDeclaredSize) {
  const ScratchFolder scratch("bomb");
  const fs::path bomb = scratch.path() / "Bomb.fmu";
  write_forged_zip(bomb, {entry("modelDescription.xml", kCoSimulationDescription),
                          entry("binaries/linux64/m.so", "not loaded: unpacking fails first"),
                          entry("resources/bomb.bin", std::string(8 << 20, '\0'), 1000)});
  const std::string error = extract_error(bomb, scratch.out());
  EXPECT_EQ(error, quoted(bomb) +
                       ": entry 'resources/bomb.bin' inflates beyond its declared size of 1000 "
                       "bytes (a zip bomb?)");
  EXPECT_FALSE(fs::exists(scratch.out() / "resources/bomb.bin"));  // the part written is gone

  // Through Fmu::open (what `simverify validate` does): the FMU's folder is removed too.
  const fs::path root = Fmu::open(test_fmu(2, "VanDerPol"))->directory().parent_path();
  try {
    (void)Fmu::open(bomb);
    ADD_FAILURE() << "the bomb was unpacked";
  } catch (const FmuError& e) {
    EXPECT_EQ(std::string(e.what()), error);
  }
  for (const auto& entry : fs::directory_iterator(root)) {
    EXPECT_FALSE(entry.path().filename().string().starts_with("Bomb-")) << entry.path();
  }
}

// An entry shorter than declared, or whose CRC is not its data's: libzip's check at the
// entry's end, which is reached because every entry is read to its end.
TEST(FmuArchive, RefusesEntriesThatDoNotMatchTheirHeaders) {
  const ScratchFolder scratch("headers");
  const fs::path shorter = scratch.path() / "Shorter.fmu";
  write_forged_zip(shorter, {entry("a.bin", std::string(5000, 'a'), 6000)});
  EXPECT_EQ(extract_error(shorter, scratch.out()),
            quoted(shorter) + ": entry 'a.bin' holds 5000 bytes, its header declares 6000 " +
                "(a damaged or forged archive)");
  EXPECT_TRUE(scratch.out_is_empty());
  const fs::path crc = scratch.path() / "Crc.fmu";
  write_forged_zip(crc, {entry("a.bin", std::string(5000, 'a'), std::nullopt, 0x12345678)});
  const std::string error = extract_error(crc, scratch.out());
  EXPECT_NE(error.find("cannot unpack 'a.bin' from " + quoted(crc) + ": CRC error"),
            std::string::npos)
      << error;
  EXPECT_TRUE(scratch.out_is_empty());
}

// The limit on the declared sizes' sum is checked before anything is written.
TEST(FmuArchive, RefusesDeclaredSizesBeyondTheLimit) {
  const ScratchFolder scratch("limit");
  const fs::path big = scratch.path() / "Big.fmu";
  write_forged_zip(big, {entry("a.bin", std::string(600 << 10, 'a')),
                         entry("b.bin", std::string(600 << 10, 'b'))});
  EXPECT_EQ(extract_error(big, scratch.out(), 1 << 20),
            quoted(big) +
                ": entry 'b.bin' (614400 bytes) would take the unpacked FMU beyond its limit of "
                "1048576 bytes (1 MiB: the test's): a zip bomb?");
  EXPECT_TRUE(scratch.out_is_empty());
  EXPECT_EQ(extract_error(big, scratch.out(), 2 << 20), "no error");
  EXPECT_EQ(fs::file_size(scratch.out() / "b.bin"), 600u << 10);
  // Two entries declaring 4 GiB - 2 each (0xffffffff would mean "see the zip64 record"),
  // against a limit one byte below their sum: the sum is compared, not each size alone.
  const fs::path huge = scratch.path() / "Huge.fmu";
  write_forged_zip(huge, {entry("a.bin", "a", 0xfffffffeULL), entry("b.bin", "b", 0xfffffffeULL)});
  const std::string error = extract_error(huge, scratch.out(), 0x1fffffffbULL);
  EXPECT_NE(error.find("entry 'b.bin' (4294967294 bytes) would take the unpacked FMU beyond"),
            std::string::npos)
      << error;
}

// The tester's 1 MB FMU that unpacked to 1 GiB, scaled down: 80 MiB of zeros deflate to about
// 80 KiB, so the archive may unpack to at most 64 MiB (100 times its size is less). Refused
// by what the entry declares, before a byte is written; through Fmu::open (`validate`) too.
TEST(FmuArchive, RefusesAnFmuThatUnpacksToMoreThanAHundredTimesItsSize) {
  const ScratchFolder scratch("ratio");
  const fs::path bomb = scratch.path() / "Zeros.fmu";
  write_forged_zip(bomb, {entry("modelDescription.xml", kCoSimulationDescription),
                          entry("binaries/linux64/m.so", "not loaded: unpacking fails first"),
                          entry("resources/zeros.bin", std::string(80 << 20, '\0'))});
  const auto archive_bytes = fs::file_size(bomb);
  ASSERT_LT(archive_bytes * ZipArchive::kRatio, ZipArchive::kFloorBytes);
  const std::string expected =
      quoted(bomb) +
      ": entry 'resources/zeros.bin' (83886080 bytes) would take the unpacked FMU beyond its "
      "limit of 67108864 bytes (64 MiB: 100 times the archive's " +
      std::to_string(archive_bytes) +
      " bytes, at least 64 MiB, at most 4096 MiB; SIMVERIFY_FMU_UNPACK_LIMIT=BYTES sets "
      "another): a zip bomb?";
  EXPECT_EQ(extract_error(bomb, scratch.out()), expected);
  EXPECT_TRUE(scratch.out_is_empty());
  try {
    (void)Fmu::open(bomb);
    ADD_FAILURE() << "the bomb was unpacked";
  } catch (const FmuError& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
}

// SIMVERIFY_FMU_UNPACK_LIMIT sets the limit (here lower, so that nothing large is written);
// a value that is no size is refused, naming the variable.
TEST(FmuArchive, TheUnpackLimitIsSetByTheEnvironment) {
  const ScratchFolder scratch("environment");
  const fs::path big = scratch.path() / "Big.fmu";
  write_forged_zip(big, {entry("a.bin", std::string(600 << 10, 'a')),
                         entry("b.bin", std::string(600 << 10, 'b'))});
  struct Variable {
    explicit Variable(const char* value) { ::setenv("SIMVERIFY_FMU_UNPACK_LIMIT", value, 1); }
    ~Variable() { ::unsetenv("SIMVERIFY_FMU_UNPACK_LIMIT"); }
    Variable(const Variable&) = delete;
    Variable& operator=(const Variable&) = delete;
  };
  {
    const Variable limit("1MiB");
    EXPECT_EQ(extract_error(big, scratch.out()),
              quoted(big) +
                  ": entry 'b.bin' (614400 bytes) would take the unpacked FMU beyond its limit "
                  "of 1048576 bytes (1 MiB: set by SIMVERIFY_FMU_UNPACK_LIMIT): a zip bomb?");
    EXPECT_TRUE(scratch.out_is_empty());
  }
  {
    const Variable limit("1228800");  // exactly the two entries
    EXPECT_EQ(extract_error(big, scratch.out()), "no error");
  }
  for (const char* wrong : {"lots", "1 GiB", "8GB", "-1", "99999999999TiB"}) {
    const Variable limit(wrong);
    EXPECT_EQ(extract_error(big, scratch.out()),
              std::string("SIMVERIFY_FMU_UNPACK_LIMIT='") + wrong +
                  "' is not a size: expected a whole number of bytes, optionally followed by "
                  "KiB, MiB, GiB or TiB (e.g. 8GiB)");
  }
}

// libzip reads zip64 archives: sizes in the zip64 extra field are read like any others. Sizes
// of 0xFFFFFFFF without that field contradict themselves; libzip says "No such file" of a
// file it has open, so the message says what is wrong instead.
TEST(FmuArchive, ReadsZip64SizesAndNamesAZip64MarkerWithoutItsField) {
  const ScratchFolder scratch("zip64");
  const fs::path zip64 = scratch.path() / "Zip64.fmu";
  write_forged_zip(zip64, {{"modelDescription.xml", kCoSimulationDescription, std::nullopt,
                            std::nullopt, simverify::fmu::testing::Zip64::extra_field}});
  EXPECT_EQ(ZipArchive(zip64).read("modelDescription.xml"),
            std::optional<std::string>(kCoSimulationDescription));

  const fs::path marker = scratch.path() / "Marker.fmu";
  write_forged_zip(marker, {{"modelDescription.xml", kCoSimulationDescription, std::nullopt,
                             std::nullopt, simverify::fmu::testing::Zip64::marker_only}});
  try {
    (void)Fmu::open(marker);
    ADD_FAILURE() << "a zip64 marker without its field was read";
  } catch (const FmuError& e) {
    EXPECT_EQ(std::string(e.what()),
              "not an FMU: " + quoted(marker) +
                  " is a damaged zip archive: an entry's size or offset is 0xFFFFFFFF, the zip64 "
                  "marker, but the entry has no zip64 extra field with the real value (zip64 "
                  "archives themselves are supported)");
  }
}

// modelDescription.xml is read whole into memory: a size beyond 16 MiB is refused as declared,
// before a byte of it is inflated.
TEST(FmuArchive, RefusesAModelDescriptionBeyondSixteenMiB) {
  const ScratchFolder scratch("description");
  const fs::path big = scratch.path() / "Big.fmu";
  write_forged_zip(big, {entry("modelDescription.xml", kCoSimulationDescription, (16 << 20) + 1),
                         entry("binaries/linux64/m.so", "not loaded")});
  try {
    (void)Fmu::open(big);
    ADD_FAILURE() << "a 16 MiB + 1 byte model description was read";
  } catch (const FmuError& e) {
    EXPECT_EQ(std::string(e.what()), "'modelDescription.xml' in " + quoted(big) +
                                         " declares 16777217 bytes; simverify reads at most 16 "
                                         "MiB (16777216 bytes) of it");
  }
}

// Entries a file system cannot hold as the archive lists them: a symbolic link (unpacked, a
// file holding its target, or a way out for an entry under it), an entry under a path the
// archive holds as a file, and two entries for one path (which copy wins is a zip tool's
// guess). Each is refused naming the entries, before anything is written; never a raw file
// system error with simverify's private folder in it.
TEST(FmuArchive, RefusesLinksDuplicatesAndEntriesUnderAFile) {
  const ScratchFolder scratch("layout");
  const fs::path link = scratch.path() / "Link.fmu";
  write_forged_zip(link, {entry("modelDescription.xml", kCoSimulationDescription),
                          {"resources/link", "/tmp", std::nullopt, std::nullopt,
                           simverify::fmu::testing::Zip64::none, 0120777},
                          entry("resources/link/ESCAPED", "via the link")});
  EXPECT_EQ(extract_error(link, scratch.out()),
            quoted(link) +
                ": entry 'resources/link' is a symbolic link; simverify unpacks files and "
                "folders only");
  EXPECT_TRUE(scratch.out_is_empty());

  const fs::path under = scratch.path() / "Under.fmu";
  write_forged_zip(under, {entry("resources/data", "a file"), entry("resources/data/x", "x")});
  EXPECT_EQ(extract_error(under, scratch.out()),
            quoted(under) +
                ": entry 'resources/data/x' lies under 'resources/data', which the archive holds "
                "as a file (a damaged or forged archive)");
  EXPECT_TRUE(scratch.out_is_empty());

  const fs::path twice = scratch.path() / "Twice.fmu";
  write_forged_zip(twice, {entry("binaries/linux64/m.so", "the first"),
                           entry("binaries/linux64/m.so", "the second")});
  EXPECT_EQ(extract_error(twice, scratch.out()),
            quoted(twice) +
                " holds two entries named 'binaries/linux64/m.so': a duplicate entry (a "
                "damaged or forged archive)");
  const fs::path spelled = scratch.path() / "Spelled.fmu";
  write_forged_zip(spelled, {entry("resources/a.bin", "a"), entry("resources/./a.bin", "b")});
  EXPECT_EQ(extract_error(spelled, scratch.out()),
            quoted(spelled) +
                " holds two entries for 'resources/a.bin' ('resources/a.bin' and "
                "'resources/./a.bin'): a duplicate entry (a damaged or forged archive)");
  EXPECT_TRUE(scratch.out_is_empty());

  // Folders listed, also twice, and files in them are what an FMU is made of.
  const fs::path plain = scratch.path() / "Plain.fmu";
  write_forged_zip(plain, {entry("resources/", ""), entry("resources/", ""),
                           entry("resources/a.bin", "a"), entry("resources/sub/b.bin", "b")});
  EXPECT_EQ(extract_error(plain, scratch.out()), "no error");
  EXPECT_EQ(fs::file_size(scratch.out() / "resources/sub/b.bin"), 1u);
}
