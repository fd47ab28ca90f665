#pragma once
// Internal: an FMU is a zip archive (FMI 2.0 and 3.0, "FMU Distribution"), read with libzip.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct zip;  // libzip's archive handle (zip_t)

namespace simverify::fmu::detail {

// The most an FMU may unpack to, and why, for the message that refuses more.
struct UnpackLimit {
  unsigned long long bytes = 0;
  std::string rule;  // "100 times the archive's 1048831 bytes, at least 64 MiB, ..."
};

class ZipArchive {
 public:
  // Throws FmuError when the file cannot be read or is not a zip archive.
  explicit ZipArchive(const std::filesystem::path& path);
  ~ZipArchive();
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;

  // Entry names as stored ("binaries/linux64/Model.so"; folders end in '/').
  [[nodiscard]] const std::vector<std::string>& entries() const { return entries_; }
  [[nodiscard]] bool contains(std::string_view name) const;
  // The whole entry as text, nothing when there is no such entry. An entry that declares more
  // than `limit` bytes is refused with an FmuError naming both, before anything is read.
  [[nodiscard]] std::optional<std::string> read(std::string_view name,
                                                unsigned long long limit = kMaxUnpackedBytes) const;
  // Writes every entry below `directory` (which must exist). Entries that would land outside
  // it (absolute names, ".." components), symbolic links, duplicates, entries under a file,
  // or entries whose declared sizes add up to more than `limit` are refused with an FmuError before
  // anything is written, naming the entry that crosses the limit. An entry that inflates beyond its
  // declared size (a zip bomb whose headers lie), or fails libzip's CRC and size check at its end,
  // is an FmuError as soon as it does: nothing beyond the declared sizes is written, and the entry
  // being written is removed. So what is written never exceeds the limit, whatever the headers say.
  void extract_to(const std::filesystem::path& directory, const UnpackLimit& limit) const;
  void extract_to(const std::filesystem::path& directory) const {
    extract_to(directory, unpack_limit());
  }

  // The default limit: kRatio times the archive file's own size (which, unlike the sizes its
  // headers declare, cannot lie), at least kFloorBytes and at most kMaxUnpackedBytes; the
  // environment variable SIMVERIFY_FMU_UNPACK_LIMIT (bytes, or a number with KiB, MiB, GiB or
  // TiB) sets another. Throws FmuError when that variable is no such size.
  [[nodiscard]] UnpackLimit unpack_limit() const;

  static constexpr unsigned long long kMaxUnpackedBytes = 4ULL << 30;  // a zip bomb, not an FMU
  static constexpr unsigned long long kFloorBytes = 64ULL << 20;
  // Deflate packs at most about 1032:1 (zeros); binaries and text pack 2:1 to 10:1.
  static constexpr unsigned long long kRatio = 100;

 private:
  [[nodiscard]] unsigned long long declared_size(std::uint64_t index) const;
  // Made on UNIX with the mode of a symbolic link (unpacked, it would be a file holding the
  // link's target, or let a later entry through it).
  [[nodiscard]] bool is_symbolic_link(std::uint64_t index) const;
  // Throws FmuError for two entries of one path (which copy wins is the zip tool's guess) and
  // for an entry under a path the archive holds as a file.
  void check_layout() const;
  // Reads entry `index` to its end into `sink`, at most `declared` bytes (FmuError beyond).
  void read_entry(std::uint64_t index, unsigned long long declared,
                  const std::function<void(const char*, std::size_t)>& sink) const;

  std::filesystem::path path_;
  unsigned long long file_bytes_ = 0;  // the archive file's size (fstat)
  ::zip* archive_ = nullptr;
  std::vector<std::string> entries_;
};

}  // namespace simverify::fmu::detail
