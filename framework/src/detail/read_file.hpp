#pragma once
// Internal: reads an input file whole, safely. Only regular files are read: a FIFO, socket or
// device would block or never end, so it is refused before any byte is read (the file is
// opened non-blocking); files larger than `max_bytes` are refused before they are read.
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace simverify::framework::detail {

struct ReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr std::uintmax_t kMaxInputBytes = std::uintmax_t{2} << 30;  // 2 GiB

// Throws ReadError "PATH: cannot read WHAT: <reason>".
[[nodiscard]] std::string read_regular_file(const std::filesystem::path& path,
                                            std::string_view what,
                                            std::uintmax_t max_bytes = kMaxInputBytes);

}  // namespace simverify::framework::detail
