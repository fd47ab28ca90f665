#include <simverify/core/regular_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace simverify::core {

namespace fs = std::filesystem;

RegularFile::RegularFile(const fs::path& path, std::string_view what, std::uintmax_t max_bytes)
    : path_(path), what_(what) {
  // The checks of read_regular_file (read_file.cpp), with its messages: keep them alike.
  // O_NONBLOCK: opening a FIFO without a writer must not hang before fstat() can refuse it.
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) {
    const int error = errno;
    // A link to nothing says so: "No such file" would contradict the link the user sees.
    if (const std::string kind = special_kind(path); error == ENOENT && !kind.empty()) {
      throw fail("it is " + kind);
    }
    throw fail(std::strerror(error));
  }
  // The destructor does not run when the constructor throws: a check that fails closes it.
  struct CloseUnlessKept {
    int& fd;
    bool keep = false;
    ~CloseUnlessKept() {
      if (!keep) ::close(fd);
    }
  } guard{fd_};
  struct stat info {};
  if (::fstat(fd_, &info) != 0) throw fail(std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw fail("it is a folder");
  if (!S_ISREG(info.st_mode)) {
    const std::string kind = special_kind(path);
    throw fail("not a regular file (" +
               (kind.empty() ? std::string("a FIFO, socket or device?") : "it is " + kind) + ")");
  }
  size_ = static_cast<std::uintmax_t>(info.st_size);
  if (size_ > max_bytes) {
    throw fail(std::to_string(size_) + " bytes is more than the limit of " +
               std::to_string(max_bytes) + " bytes");
  }
  guard.keep = true;
}

RegularFile::~RegularFile() {
  if (fd_ >= 0) ::close(fd_);
}

ReadError RegularFile::fail(const std::string& why) const {
  return ReadError(path_, "cannot read " + what_ + ": " + why);
}

std::size_t RegularFile::read(char* buffer, std::size_t size) {
  // Never more than the size fstat() saw: a file that grows while it is read (or lies about
  // its size) cannot give more than the limit allows.
  size = static_cast<std::size_t>(std::min<std::uintmax_t>(size, size_ - done_));
  while (size > 0) {
    const ssize_t n = ::read(fd_, buffer, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw fail(std::strerror(errno));
    done_ += static_cast<std::uintmax_t>(n);
    return static_cast<std::size_t>(n);  // 0: the file shrank while we read it
  }
  return 0;
}

}  // namespace simverify::core
