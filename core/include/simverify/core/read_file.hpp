#pragma once
// Reads an input file whole, safely; the one place every input file (results, coverage,
// test results, requirement and project files, input tables, compare references, data
// tables) is opened. Only regular files are
// read: a FIFO, socket or device would block or never end, so it is refused before any byte is
// read (the file is opened non-blocking, so even a FIFO swapped in after a check cannot make
// us wait); files larger than `max_bytes` are refused before they are read.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::core {

class ReadError : public std::runtime_error {
 public:
  ReadError(const std::filesystem::path& path, std::string reason);
  // The message without the path, "cannot read WHAT: why", for errors that name the file
  // by their location instead.
  [[nodiscard]] const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

inline constexpr std::uintmax_t kMaxInputBytes = std::uintmax_t{2} << 30;  // 2 GiB
// CSV tables (input signals, compare references, data tables): ten million rows and more,
// read whole and parsed in memory, so far less than any file simverify writes itself.
inline constexpr std::uintmax_t kMaxTableBytes = std::uintmax_t{256} << 20;  // 256 MiB

// Throws ReadError "PATH: cannot read WHAT: <why>".
[[nodiscard]] std::string read_regular_file(const std::filesystem::path& path,
                                            std::string_view what,
                                            std::uintmax_t max_bytes = kMaxInputBytes);

// A CSV table (kMaxTableBytes at most) without the UTF-8 byte order mark that spreadsheet
// programs write ("CSV UTF-8" in Excel): left in, it would be part of the first header name.
[[nodiscard]] std::string read_table_file(const std::filesystem::path& path, std::string_view what);

// A table's header names `name` more than once: "column 'u' is named twice in the header
// (columns 2 and 4)", numbered from 1, so reading it by name would take the first unasked.
// Nothing when the name occurs at most once.
[[nodiscard]] std::optional<std::string> repeated_column(const std::vector<std::string>& header,
                                                         std::string_view name);

// What `path` is when it is neither a folder nor a regular file, for messages: "a FIFO",
// "a socket", "a character device", "a block device", "a symbolic link to nothing", "a loop of
// symbolic links". Empty
// when it is a folder or a regular file, or nothing is there.
[[nodiscard]] std::string special_kind(const std::filesystem::path& path);

// The same words for a file type itself ("a symbolic link" for a link not followed); empty
// for a folder, a regular file or nothing.
[[nodiscard]] std::string special_kind(std::filesystem::file_type type);

}  // namespace simverify::core
