// The CSV files of stored time series, written on worker threads (reporters/series_writer.hpp):
// the same text as on the caller's thread, errors reported with their path, nothing written
// after an error, and no hang when a run is abandoned with files still queued.
#include "reporters/series_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

using simverify::framework::TimeSeries;
using simverify::framework::detail::series_csv;
using simverify::framework::detail::SeriesWriter;
namespace fs = std::filesystem;

namespace {

fs::path writer_scratch(const std::string& name) {
  fs::path dir =
      fs::temp_directory_path() / ("simverify-series-writer-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Series k: 200 samples whose numbers need up to 17 digits (k / 3, 0.1 k, ...).
TimeSeries sample_series(int k) {
  TimeSeries s{{}, {"x", "v"}, {{}, {}}};
  for (int i = 0; i < 200; ++i) {
    s.time.push_back(0.01 * i);
    s.columns[0].push_back(k / 3.0 + i);
    s.columns[1].push_back(-0.1 * k * i);
  }
  return s;
}

std::size_t files_in_folder(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST(SeriesCsv, IsTheHeaderAndOneRowPerSampleInShortestRoundTripText) {
  const TimeSeries s{{0.0, 0.1}, {"x", "y"}, {{1.0, 1.0 / 3.0}, {-2.5, 1e-300}}};
  EXPECT_EQ(series_csv(s), "t,x,y\n0,1,-2.5\n0.1,0.3333333333333333,1e-300\n");
}

TEST(SeriesWriter, ThreadsWriteTheSameTextAsTheCallersThread) {
  const fs::path dir = writer_scratch("same");
  {
    SeriesWriter writer(2);
    for (int k = 0; k < 60; ++k) {
      writer.write(dir / "threads" / (std::to_string(k) + ".csv"), sample_series(k));
    }
    writer.finish();
  }
  SeriesWriter inline_writer(0);
  for (int k = 0; k < 60; ++k) {
    const fs::path file = dir / "inline" / (std::to_string(k) + ".csv");
    inline_writer.write(file, sample_series(k));
    ASSERT_TRUE(fs::exists(file)) << "written before write() returns";
    EXPECT_EQ(read_text(dir / "threads" / (std::to_string(k) + ".csv")), read_text(file)) << k;
  }
  inline_writer.finish();
  EXPECT_EQ(files_in_folder(dir / "threads"), 60U);  // and no temporary file left beside them
  fs::remove_all(dir.parent_path());
}

// A file that cannot be written (its folder is a regular file): finish() throws the error with
// the path, later writes throw it instead of queueing, and nothing queued after it is written.
TEST(SeriesWriter, AnErrorIsReportedWithItsPathAndStopsTheWriting) {
  const fs::path dir = writer_scratch("error");
  std::ofstream(dir / "blocker") << "not a folder";
  SeriesWriter writer(2);
  writer.write(dir / "blocker" / "0.csv", sample_series(0));
  try {
    writer.finish();
    FAIL() << "finish() did not report the failed file";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("blocker"), std::string::npos) << e.what();
  }
  EXPECT_THROW(writer.write(dir / "ok" / "1.csv", sample_series(1)), std::exception);
  EXPECT_THROW(writer.finish(), std::exception);
  EXPECT_FALSE(fs::exists(dir / "ok"));
  fs::remove_all(dir.parent_path());
}

// A run abandoned with files queued (an exception elsewhere, or a second Ctrl-C): the writer
// returns without writing the rest, and every file it did write is complete.
TEST(SeriesWriter, DestroyedWithFilesQueuedItStopsWithoutHalfWrittenFiles) {
  const fs::path dir = writer_scratch("abandoned");
  {
    SeriesWriter writer(1);
    for (int k = 0; k < 4; ++k) writer.write(dir / (std::to_string(k) + ".csv"), sample_series(k));
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
    EXPECT_EQ(read_text(entry.path()), series_csv(sample_series(std::stoi(name)))) << name;
  }
  fs::remove_all(dir.parent_path());
}
