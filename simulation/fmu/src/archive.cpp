#include "archive.hpp"

#include <simverify/core/interrupt.hpp>
#include <simverify/fmu/model_description.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <system_error>

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

std::string mebibytes(unsigned long long bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

// A size as an environment variable gives it: a whole number of bytes, or with KiB ... TiB.
unsigned long long parse_size(const char* variable, std::string_view text) {
  const auto refuse = [&] {
    return FmuError(std::string(variable) + "='" + std::string(text) +
                    "' is not a size: expected a whole number of bytes, optionally followed by "
                    "KiB, MiB, GiB or TiB (e.g. 8GiB)");
  };
  unsigned long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) throw refuse();
  const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  int shift = 0;
  if (unit == "KiB") {
    shift = 10;
  } else if (unit == "MiB") {
    shift = 20;
  } else if (unit == "GiB") {
    shift = 30;
  } else if (unit == "TiB") {
    shift = 40;
  } else if (!unit.empty()) {
    throw refuse();
  }
  if (value > (~0ULL >> shift)) throw refuse();
  return value << shift;
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
  file_bytes_ = static_cast<unsigned long long>(info.st_size);
  int code = 0;
  archive_ = zip_fdopen(fd, 0, &code);  // owns fd from here on, when it succeeds
  if (archive_ == nullptr) {
    ::close(fd);
    if (code == ZIP_ER_NOZIP || code == ZIP_ER_INCONS) {
      throw FmuError("not an FMU: '" + path.string() + "' is not a zip archive (" +
                     error_text(code) + ")");
    }
    // The file is open, so libzip's "No such file" is about its central directory: a size or
    // offset of 0xFFFFFFFF says "see the entry's zip64 extra field", which the entry lacks.
    // libzip reads zip64 archives; this one's headers contradict themselves.
    if (code == ZIP_ER_NOENT) {
      throw FmuError("not an FMU: '" + path.string() +
                     "' is a damaged zip archive: an entry's size or offset is 0xFFFFFFFF, the "
                     "zip64 marker, but the entry has no zip64 extra field with the real value "
                     "(zip64 archives themselves are supported)");
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

std::optional<std::string> ZipArchive::read(std::string_view name, unsigned long long limit) const {
  const std::string key(name);
  const zip_int64_t index = zip_name_locate(archive_, key.c_str(), 0);
  if (index < 0) return std::nullopt;
  const auto i = static_cast<zip_uint64_t>(index);
  const unsigned long long declared = declared_size(i);
  if (declared > limit) {
    throw FmuError("'" + key + "' in '" + path_.string() + "' declares " +
                   std::to_string(declared) + " bytes; simverify reads at most " +
                   std::to_string(limit >> 20) + " MiB (" + std::to_string(limit) +
                   " bytes) of it");
  }
  std::string text;
  read_entry(i, declared, [&](const char* data, std::size_t size) { text.append(data, size); });
  return text;
}

unsigned long long ZipArchive::declared_size(std::uint64_t index) const {
  zip_stat_t stat;
  zip_stat_init(&stat);
  if (zip_stat_index(archive_, index, 0, &stat) != 0 || (stat.valid & ZIP_STAT_SIZE) == 0) {
    throw FmuError("cannot read the size of '" + entries_[index] + "' in '" + path_.string() +
                   "': " + zip_strerror(archive_));
  }
  return stat.size;
}

void ZipArchive::read_entry(std::uint64_t index, unsigned long long declared,
                            const std::function<void(const char*, std::size_t)>& sink) const {
  const std::string& name = entries_[index];
  const std::unique_ptr<zip_file_t, EntryCloser> file(zip_fopen_index(archive_, index, 0));
  if (!file) {
    throw FmuError("cannot unpack '" + name + "' from '" + path_.string() +
                   "': " + zip_strerror(archive_));
  }
  // The sizes in the zip headers are the archive's word, not the data's: a deflated entry can
  // inflate to a thousand times its compressed size, whatever its header declares. What is
  // read is counted, and reading stops at the first byte beyond the declared size. libzip
  // checks the CRC and the size when the entry's end is reached (zip_source_crc), so the entry
  // is read to its end, not to the declared size only.
  std::array<char, 1 << 16> buffer{};
  unsigned long long read = 0;
  for (;;) {
    const zip_int64_t n = zip_fread(file.get(), buffer.data(), buffer.size());
    if (n < 0) {
      throw FmuError("cannot unpack '" + name + "' from '" + path_.string() +
                     "': " + zip_file_strerror(file.get()) + " (a damaged or forged archive)");
    }
    if (n == 0) break;
    // Ctrl-C while requirements load: a large FMU stops within one buffer, not at its end.
    if (core::stop_requested().load(std::memory_order_relaxed)) {
      throw FmuError("'" + path_.string() + "': interrupted while unpacking entry '" + name + "'");
    }
    const auto size = static_cast<unsigned long long>(n);
    if (size > declared - read) {
      throw FmuError("'" + path_.string() + "': entry '" + name +
                     "' inflates beyond its declared size of " + std::to_string(declared) +
                     " bytes (a zip bomb?)");
    }
    read += size;
    sink(buffer.data(), static_cast<std::size_t>(size));
  }
  if (read != declared) {
    throw FmuError("'" + path_.string() + "': entry '" + name + "' holds " + std::to_string(read) +
                   " bytes, its header declares " + std::to_string(declared) +
                   " (a damaged or forged archive)");
  }
}

bool ZipArchive::is_symbolic_link(std::uint64_t index) const {
  zip_uint8_t system = 0;
  zip_uint32_t attributes = 0;
  if (zip_file_get_external_attributes(archive_, index, 0, &system, &attributes) != 0) {
    return false;
  }
  // Made on UNIX: the high 16 bits are the file's st_mode (as Info-ZIP writes it).
  return system == ZIP_OPSYS_UNIX && ((attributes >> 16) & S_IFMT) == S_IFLNK;
}

void ZipArchive::check_layout() const {
  // Each entry's path with empty and "." components dropped, as the file system reads it.
  const auto normal = [](std::string_view name) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= name.size()) {
      const std::size_t end = std::min(name.find('/', start), name.size());
      const std::string_view part = name.substr(start, end - start);
      if (!part.empty() && part != ".") parts.emplace_back(part);
      start = end + 1;
    }
    return parts;
  };
  std::map<std::string, std::size_t> files;    // path -> the entry
  std::map<std::string, std::size_t> folders;  // path -> an entry that is or lies in it
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const auto parts = normal(entries_[i]);
    if (parts.empty()) continue;
    std::string path;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      path += (k == 0 ? "" : "/") + parts[k];
      if (k + 1 < parts.size() || entries_[i].back() == '/') folders.emplace(path, i);
    }
    if (entries_[i].back() == '/') continue;
    if (const auto [at, fresh] = files.emplace(path, i); !fresh) {
      const std::string& first = entries_[at->second];
      throw FmuError("'" + path_.string() + "' holds two entries " +
                     (first == entries_[i]
                          ? "named '" + first + "'"
                          : "for '" + path + "' ('" + first + "' and '" + entries_[i] + "')") +
                     ": a duplicate entry (a damaged or forged archive)");
    }
  }
  for (const auto& [path, i] : files) {
    if (const auto inside = folders.find(path); inside != folders.end()) {
      throw FmuError("'" + path_.string() + "': entry '" + entries_[inside->second] +
                     "' lies under '" + entries_[i] +
                     "', which the archive holds as a file (a damaged or forged archive)");
    }
  }
}

UnpackLimit ZipArchive::unpack_limit() const {
  constexpr const char* kVariable = "SIMVERIFY_FMU_UNPACK_LIMIT";
  if (const char* text = std::getenv(kVariable); text != nullptr && *text != '\0') {
    return {parse_size(kVariable, text), std::string("set by ") + kVariable};
  }
  const unsigned long long ratio =
      file_bytes_ > kMaxUnpackedBytes / kRatio ? kMaxUnpackedBytes : file_bytes_ * kRatio;
  return {std::clamp(ratio, kFloorBytes, kMaxUnpackedBytes),
          std::to_string(kRatio) + " times the archive's " + std::to_string(file_bytes_) +
              " bytes, at least " + mebibytes(kFloorBytes) + ", at most " +
              mebibytes(kMaxUnpackedBytes) + "; " + kVariable + "=BYTES sets another"};
}

void ZipArchive::extract_to(const std::filesystem::path& directory,
                            const UnpackLimit& limit) const {
  // Every name and size is checked before anything is written. The declared sizes are summed
  // against the limit without overflow (each is at most 2^64 - 1 in a zip64 header).
  std::vector<unsigned long long> declared(entries_.size(), 0);
  unsigned long long total = 0;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!safe_name(entries_[i])) {
      throw FmuError("'" + path_.string() + "' holds an entry that would unpack outside its " +
                     "folder: '" + entries_[i] + "'");
    }
    if (is_symbolic_link(i)) {
      throw FmuError("'" + path_.string() + "': entry '" + entries_[i] +
                     "' is a symbolic link; simverify unpacks files and folders only");
    }
    declared[i] = declared_size(i);
    if (declared[i] > limit.bytes - total) {
      throw FmuError(
          "'" + path_.string() + "': entry '" + entries_[i] + "' (" + std::to_string(declared[i]) +
          " bytes) would take the unpacked FMU beyond its limit of " + std::to_string(limit.bytes) +
          " bytes (" + std::to_string((limit.bytes + (1ULL << 19)) >> 20) + " MiB: " + limit.rule +
          "): a zip bomb?");
    }
    total += declared[i];
  }
  check_layout();
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const std::filesystem::path target = directory / entries_[i];
    if (entries_[i].back() == '/') {
      std::error_code made;
      std::filesystem::create_directories(target, made);
      if (made) {
        throw FmuError("cannot unpack entry '" + entries_[i] + "' from '" + path_.string() +
                       "': " + made.message());
      }
      continue;
    }
    std::error_code made;
    std::filesystem::create_directories(target.parent_path(), made);
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    if (made || !out) {
      // Named by the entry: the private folder's path says nothing to the user.
      throw FmuError("cannot unpack entry '" + entries_[i] + "' from '" + path_.string() + "': " +
                     (made ? made : std::error_code(errno, std::generic_category())).message());
    }
    try {
      // read_entry stops at the declared size, so what is written stays within the limit.
      read_entry(i, declared[i], [&](const char* data, std::size_t size) {
        out.write(data, static_cast<std::streamsize>(size));
      });
      out.close();
      if (!out) throw FmuError("cannot write '" + target.string() + "' (disk full?)");
    } catch (...) {
      // No half-written entry stays behind (the caller removes the folder it gave).
      out.close();
      std::error_code ignored;
      std::filesystem::remove(target, ignored);
      throw;
    }
  }
}

}  // namespace simverify::fmu::detail
