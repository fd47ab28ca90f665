#pragma once
// The CSV files of the time series a run stores (`--series`), formatted and written on worker
// threads. The JSON reporter runs on the runner's thread, one point after the other; formatting
// a trajectory's numbers costs more than computing it (an Arenstorf solve at 1e-8: about 2,000
// numbers at 60 ns each against a 50 us solve), so with the formatting on that thread more
// `--jobs` made the run no faster. The files and their text are the same either way.
#include <simverify/framework/measurement.hpp>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace simverify::framework::detail {

// "t,<names>" and one row per sample, each number the shortest text that reads back to the
// same double (fmt's default: exact, and about half the size of %.17g).
[[nodiscard]] std::string series_csv(const TimeSeries& series);

// Where a point's series is stored, relative to the results folder:
// series/<requirement id>/<grid index>-<measure name>.csv.
[[nodiscard]] std::filesystem::path series_file(const std::string& requirement_id,
                                                std::size_t index, const std::string& name);
// And where its k-th figure is (figures/<requirement id>/<k>.gv): the JSON reporter writes
// both, merge copies both.
[[nodiscard]] std::filesystem::path figure_file(const std::string& requirement_id, std::size_t k);

class SeriesWriter {
 public:
  // threads == 0: write() formats and writes on the caller's thread before it returns.
  explicit SeriesWriter(unsigned threads);
  // Files still queued are dropped, the ones being written are finished (a run that failed
  // or was abandoned: its staging folder goes after this).
  ~SeriesWriter();
  SeriesWriter(const SeriesWriter&) = delete;
  SeriesWriter& operator=(const SeriesWriter&) = delete;

  // Writes series_csv(series) to `path` (core::write_atomically: nothing half-written, the
  // folder made as needed, also by several threads at once). With threads, a copy of series is
  // queued; the call waits while 4 files per thread are queued, so the queue's memory stays
  // bounded, and throws the first error of an earlier file (its path and the system's reason)
  // instead of queueing more.
  void write(std::filesystem::path path, const TimeSeries& series);
  // Returns once every queued file is written; throws the first error, if any.
  void finish();

 private:
  struct File {
    std::filesystem::path path;
    TimeSeries series;
  };
  void work();
  void rethrow_error() const;  // with mutex_ held

  std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable queued_;    // a file to write, or stopping_
  std::condition_variable progress_;  // a file taken or written
  std::deque<File> queue_;
  std::size_t writing_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::vector<std::jthread> threads_;  // last: joined before the members above go
};

}  // namespace simverify::framework::detail
