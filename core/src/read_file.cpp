#include <simverify/core/read_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <string>

namespace simverify::core {
namespace {

namespace fs = std::filesystem;

// Closes the descriptor on every path out.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

ReadError::ReadError(const fs::path& path, std::string reason)
    : std::runtime_error(path.string() + ": " + reason), reason_(std::move(reason)) {}

std::string special_kind(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory:
    case fs::file_type::regular:
    case fs::file_type::not_found:
    case fs::file_type::none: return "";
    case fs::file_type::symlink: return "a symbolic link";
    case fs::file_type::fifo: return "a FIFO";
    case fs::file_type::socket: return "a socket";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    default: return "neither a folder nor a regular file";
  }
}

std::string special_kind(const fs::path& path) {
  std::error_code ec;
  const fs::file_type type = fs::status(path, ec).type();
  if (ec == std::errc::too_many_symbolic_link_levels) return "a loop of symbolic links";
  if (type == fs::file_type::not_found && fs::is_symlink(fs::symlink_status(path, ec))) {
    return "a symbolic link to nothing";
  }
  return special_kind(type);
}

std::string read_regular_file(const fs::path& path, std::string_view what,
                              std::uintmax_t max_bytes) {
  const auto fail = [&](const std::string& why) {
    return ReadError(path, "cannot read " + std::string(what) + ": " + why);
  };
  // O_NONBLOCK: opening a FIFO without a writer must not hang before fstat() can refuse it.
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) {
    const int error = errno;
    // A link to nothing says so: "No such file" would contradict the link the user sees.
    if (const std::string kind = special_kind(path); error == ENOENT && !kind.empty()) {
      throw fail("it is " + kind);
    }
    throw fail(std::strerror(error));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) throw fail(std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw fail("it is a folder");
  if (!S_ISREG(info.st_mode)) {
    const std::string kind = special_kind(path);
    throw fail("not a regular file (" +
               (kind.empty() ? std::string("a FIFO, socket or device?") : "it is " + kind) + ")");
  }
  const auto size = static_cast<std::uintmax_t>(info.st_size);
  if (size > max_bytes) {
    throw fail(std::to_string(size) + " bytes is more than the limit of " +
               std::to_string(max_bytes) + " bytes");
  }
  // Never more than the size fstat() saw: a file that grows while it is read (or lies about
  // its size) cannot make us allocate more than the limit allows.
  std::string text(static_cast<std::size_t>(size), '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::read(fd.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw fail(std::strerror(errno));
    if (n == 0) break;  // the file shrank while we read it
    done += static_cast<std::size_t>(n);
  }
  text.resize(done);
  return text;
}

std::optional<std::string> repeated_column(const std::vector<std::string>& header,
                                           std::string_view name) {
  std::vector<std::size_t> at;
  for (std::size_t j = 0; j < header.size(); ++j) {
    if (header[j] == name) at.push_back(j + 1);
  }
  if (at.size() < 2) return std::nullopt;
  return "column '" + std::string(name) + "' is named twice in the header (columns " +
         std::to_string(at[0]) + " and " + std::to_string(at[1]) + ")";
}

std::string read_table_file(const fs::path& path, std::string_view what) {
  std::string text = read_regular_file(path, what, kMaxTableBytes);
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  return text;
}

}  // namespace simverify::core
