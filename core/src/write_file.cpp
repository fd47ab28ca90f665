#include <simverify/core/read_file.hpp>
#include <simverify/core/write_file.hpp>

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace simverify::core {
namespace fs = std::filesystem;

namespace {

std::runtime_error cannot_write(const fs::path& path, const std::string& why) {
  return std::runtime_error("cannot write " + path.string() + ": " + why);
}

// Where the content goes: `path` itself, or the file a link at `path` points to.
fs::path destination_of(const fs::path& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (status.type() == fs::file_type::directory) throw cannot_write(path, "it is a folder");
  if (const std::string kind = special_kind(path); !kind.empty()) {
    throw cannot_write(path, "it is " + kind + ", not a regular file; it was left as it is");
  }
  if (fs::is_symlink(fs::symlink_status(path, ec))) return fs::canonical(path);
  return path;
}

// A fresh temporary file beside `target`, created exclusively so no existing file (ours
// from a killed run or anyone's) is ever truncated.
int create_temporary(const fs::path& target, fs::path& temp) {
  for (int attempt = 0;; ++attempt) {
    temp = target;
    temp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(attempt);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0 || errno != EEXIST || attempt == 100) return fd;
  }
}

}  // namespace

void write_atomically(const fs::path& path, std::string_view content) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  const fs::path target = destination_of(path);
  fs::path temp;
  const int fd = create_temporary(target, temp);
  if (fd < 0) throw cannot_write(path, std::strerror(errno));
  const auto fail = [&](int error) {
    ::unlink(temp.c_str());
    return cannot_write(path, std::strerror(error));
  };
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      throw fail(error);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) throw fail(errno);
  if (::rename(temp.c_str(), target.c_str()) != 0) throw fail(errno);
}

}  // namespace simverify::core
