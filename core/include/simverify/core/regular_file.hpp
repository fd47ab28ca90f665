#pragma once
// Reads an input file in pieces, safely, with the checks read_regular_file makes.
#include <simverify/core/read_file.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace simverify::core {

// An input file opened with read_regular_file's checks (read_file.hpp: a regular file, opened
// non-blocking so that a FIFO cannot make us wait, not larger than `max_bytes`), for reading in
// pieces: a results.json of many megabytes is parsed as it is
// read rather than held whole beside what is parsed from it. Throws ReadError as
// read_regular_file does.
class RegularFile {
 public:
  RegularFile(const std::filesystem::path& path, std::string_view what,
              std::uintmax_t max_bytes = kMaxInputBytes);
  ~RegularFile();
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;

  // The size the checks saw; read() never gives more.
  [[nodiscard]] std::uintmax_t size() const { return size_; }
  // Up to `size` further bytes into `buffer`; 0 at the end.
  [[nodiscard]] std::size_t read(char* buffer, std::size_t size);

 private:
  [[nodiscard]] ReadError fail(const std::string& why) const;

  std::filesystem::path path_;
  std::string what_;
  int fd_ = -1;
  std::uintmax_t size_ = 0;
  std::uintmax_t done_ = 0;
};

}  // namespace simverify::core
