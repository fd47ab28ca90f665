#include "reporters/series_writer.hpp"

#include "detail/atomic_file.hpp"
#include "detail/json_writer.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <utility>

namespace simverify::framework::detail {
namespace fs = std::filesystem;

std::string series_csv(const TimeSeries& series) {
  std::string csv = "t";
  for (const auto& name : series.names) csv += "," + name;
  csv += "\n";
  // The format compiled once (append_formatted): a series has thousands of numbers, and
  // parsing "{}" again for each was most of a run's time.
  for (std::size_t i = 0; i < series.time.size(); ++i) {
    append_formatted(csv, FMT_COMPILE("{}"), series.time[i]);
    for (const auto& column : series.columns) {
      csv += ',';
      append_formatted(csv, FMT_COMPILE("{}"), column[i]);
    }
    csv += '\n';
  }
  return csv;
}

fs::path series_file(const std::string& requirement_id, std::size_t index,
                     const std::string& name) {
  return fs::path("series") / requirement_id / fmt::format("{}-{}.csv", index, name);
}

fs::path figure_file(const std::string& requirement_id, std::size_t k) {
  return fs::path("figures") / requirement_id / fmt::format("{}.gv", k);
}

SeriesWriter::SeriesWriter(unsigned threads) : capacity_(4 * std::size_t{threads}) {
  threads_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

SeriesWriter::~SeriesWriter() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  queued_.notify_all();
  threads_.clear();  // joins: no thread touches the members after this
}

void SeriesWriter::write(fs::path path, const TimeSeries& series) {
  if (threads_.empty()) {
    write_atomically(path, series_csv(series));
    return;
  }
  std::unique_lock lock(mutex_);
  progress_.wait(lock, [&] { return error_ || queue_.size() < capacity_; });
  rethrow_error();
  queue_.push_back({std::move(path), series});
  lock.unlock();
  queued_.notify_one();
}

void SeriesWriter::finish() {
  std::unique_lock lock(mutex_);
  progress_.wait(lock, [&] { return queue_.empty() && writing_ == 0; });
  rethrow_error();
}

void SeriesWriter::rethrow_error() const {
  if (error_) std::rethrow_exception(error_);
}

void SeriesWriter::work() {
  for (;;) {
    File file;
    {
      std::unique_lock lock(mutex_);
      queued_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      file = std::move(queue_.front());
      queue_.pop_front();
      ++writing_;
    }
    progress_.notify_all();
    std::exception_ptr error;
    try {
      write_atomically(file.path, series_csv(file.series));
    } catch (...) {
      error = std::current_exception();
    }
    {
      const std::lock_guard lock(mutex_);
      --writing_;
      if (error && !error_) error_ = error;
      // After an error nothing more is written: the run fails with it (exit 2), and its
      // staging folder goes.
      if (error_) queue_.clear();
    }
    progress_.notify_all();
  }
}

}  // namespace simverify::framework::detail
