#include "archive.hpp"

#include <simverify/fmu/model_description.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>

namespace simverify::fmu::detail {
namespace {

std::string error_text(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}

// A stored name that stays inside the folder it is unpacked into.
bool safe_name(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.find('\\') != std::string_view::npos) {
    return false;
  }
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t end = std::min(name.find('/', start), name.size());
    if (name.substr(start, end - start) == "..") return false;
    start = end + 1;
  }
  return true;
}

struct EntryCloser {
  void operator()(zip_file_t* file) const { zip_fclose(file); }
};

}  // namespace

ZipArchive::ZipArchive(const std::filesystem::path& path) : path_(path) {
  // The FMU is opened once and checked through that descriptor: a check by name and an open
  // by name could see two different files (a FIFO swapped in would block zip_open forever).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw FmuError("cannot read '" + path.string() + "': " + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw FmuError("no FMU at '" + path.string() + "' (not a regular file)");
  }
  int code = 0;
  archive_ = zip_fdopen(fd, 0, &code);  // owns fd from here on, when it succeeds
  if (archive_ == nullptr) {
    ::close(fd);
    if (code == ZIP_ER_NOZIP || code == ZIP_ER_INCONS) {
      throw FmuError("not an FMU: '" + path.string() + "' is not a zip archive (" +
                     error_text(code) + ")");
    }
    throw FmuError("cannot read '" + path.string() + "': " + error_text(code));
  }
  const zip_int64_t count = zip_get_num_entries(archive_, 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    const char* name = zip_get_name(archive_, static_cast<zip_uint64_t>(i), 0);
    entries_.emplace_back(name != nullptr ? name : "");
  }
}

ZipArchive::~ZipArchive() {
  if (archive_ != nullptr) zip_discard(archive_);
}

bool ZipArchive::contains(std::string_view name) const {
  return std::find(entries_.begin(), entries_.end(), name) != entries_.end();
}

std::optional<std::string> ZipArchive::read(std::string_view name) const {
  const std::string key(name);
  zip_stat_t stat;
  if (zip_stat(archive_, key.c_str(), 0, &stat) != 0) return std::nullopt;
  if ((stat.valid & ZIP_STAT_SIZE) != 0 && stat.size > kMaxUnpackedBytes) {
    throw FmuError("'" + key + "' in '" + path_.string() + "' is too large to read");
  }
  const std::unique_ptr<zip_file_t, EntryCloser> file(zip_fopen(archive_, key.c_str(), 0));
  if (!file) {
    throw FmuError("cannot read '" + key + "' from '" + path_.string() +
                   "': " + zip_strerror(archive_));
  }
  std::string text;
  char buffer[1 << 15];
  for (;;) {
    const zip_int64_t n = zip_fread(file.get(), buffer, sizeof buffer);
    if (n < 0) {
      throw FmuError("cannot read '" + key + "' from '" + path_.string() +
                     "': " + zip_file_strerror(file.get()));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kMaxUnpackedBytes) {
      throw FmuError("'" + key + "' in '" + path_.string() + "' is too large to read");
    }
  }
  return text;
}

void ZipArchive::extract_to(const std::filesystem::path& directory) const {
  unsigned long long total = 0;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!safe_name(entries_[i])) {
      throw FmuError("'" + path_.string() + "' holds an entry that would unpack outside its " +
                     "folder: '" + entries_[i] + "'");
    }
    zip_stat_t stat;
    if (zip_stat_index(archive_, i, 0, &stat) == 0 && (stat.valid & ZIP_STAT_SIZE) != 0) {
      total += stat.size;
    }
  }
  if (total > kMaxUnpackedBytes) {
    throw FmuError("'" + path_.string() + "' unpacks to " + std::to_string(total >> 20) +
                   " MiB, more than an FMU plausibly holds (a zip bomb?)");
  }
  char buffer[1 << 16];
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const std::filesystem::path target = directory / entries_[i];
    if (entries_[i].back() == '/') {
      std::filesystem::create_directories(target);
      continue;
    }
    std::filesystem::create_directories(target.parent_path());
    const std::unique_ptr<zip_file_t, EntryCloser> file(zip_fopen_index(archive_, i, 0));
    if (!file) {
      throw FmuError("cannot unpack '" + entries_[i] + "' from '" + path_.string() +
                     "': " + zip_strerror(archive_));
    }
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    if (!out) throw FmuError("cannot write '" + target.string() + "'");
    for (;;) {
      const zip_int64_t n = zip_fread(file.get(), buffer, sizeof buffer);
      if (n < 0) {
        throw FmuError("cannot unpack '" + entries_[i] + "' from '" + path_.string() +
                       "': " + zip_file_strerror(file.get()));
      }
      if (n == 0) break;
      out.write(buffer, static_cast<std::streamsize>(n));
    }
    if (!out) throw FmuError("cannot write '" + target.string() + "' (disk full?)");
  }
}

}  // namespace simverify::fmu::detail
