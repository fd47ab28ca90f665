#include "file_text.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace simverify::framework::yaml {
namespace {

namespace fs = std::filesystem;

// An error about a whole file: at its start, so it reads file:1:1 like every other error.
Diagnostic at_start(const fs::path& path, std::string message) {
  return {SourceLocation{path.string(), 1, 1}, std::move(message)};
}

// Closes the descriptor on every way out.
struct Descriptor {
  explicit Descriptor(int opened) : fd(opened) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
  int fd;
};

}  // namespace

std::string special_kind(const fs::path& path) {
  std::error_code ec;
  switch (fs::status(path, ec).type()) {
    case fs::file_type::fifo: return "a FIFO";
    case fs::file_type::socket: return "a socket";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    case fs::file_type::not_found:
      return fs::is_symlink(fs::symlink_status(path, ec)) ? "a symbolic link to nothing" : "";
    default: return "neither a folder nor a regular file";
  }
}

Diagnostic not_a_regular_file(const fs::path& path, const std::string& kind,
                              std::string_view what) {
  return at_start(path, fmt::format("'{}' is {}, not a {}; only regular files are read",
                                    path.filename().string(), kind, what));
}

std::optional<std::string> read_file_text(const fs::path& path, std::string_view what,
                                          Diagnostics& errors) {
  // O_NONBLOCK: a FIFO put in the file's place after it was looked at must not make us wait.
  const Descriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (file.fd < 0) {
    errors.push_back(
        at_start(path, fmt::format("cannot read the {}: {}", what, std::strerror(errno))));
    return std::nullopt;
  }
  struct stat info {};
  if (::fstat(file.fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    const std::string kind = special_kind(path);
    errors.push_back(not_a_regular_file(path, kind.empty() ? "no longer there" : kind, what));
    return std::nullopt;
  }
  if (static_cast<std::uintmax_t>(info.st_size) > kMaxFileBytes) {
    errors.push_back(at_start(path, fmt::format("the {} has {} bytes, more than the {} MiB such "
                                                "a file may have",
                                                what, info.st_size, kMaxFileBytes >> 20)));
    return std::nullopt;
  }
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const auto n = ::read(file.fd, buffer, sizeof buffer);
    if (n == 0) return text;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || text.size() + static_cast<std::size_t>(n) > kMaxFileBytes) {
      errors.push_back(
          at_start(path, fmt::format("cannot read the {}: {}", what,
                                     n < 0 ? std::strerror(errno) : "it grew while it was read")));
      return std::nullopt;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace simverify::framework::yaml
