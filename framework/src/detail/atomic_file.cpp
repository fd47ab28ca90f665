#include "detail/atomic_file.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace simverify::framework::detail {

void write_atomically(const std::filesystem::path& path, std::string_view content) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  auto temp = path;
  temp += ".tmp." + std::to_string(::getpid());
  // A write that fails (a full disk) names the file and the reason and leaves no temporary
  // file behind; the file at `path` is untouched.
  const auto fail = [&](int error) {
    ::unlink(temp.c_str());
    return std::runtime_error(
        fmt::format("cannot write {}: {}", path.string(), std::strerror(error)));
  };
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw std::runtime_error(
        fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
  }
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
  if (::rename(temp.c_str(), path.c_str()) != 0) throw fail(errno);
}

}  // namespace simverify::framework::detail
