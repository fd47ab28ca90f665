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
  // it (absolute names, ".." components) or whose declared sizes add up to more than `limit`
  // are refused with an FmuError before anything is written. An entry that inflates beyond
  // its declared size (a zip bomb whose headers lie), or fails libzip's CRC and size check at
  // its end, is an FmuError as soon as it does: nothing beyond the declared sizes is written,
  // and the entry being written is removed.
  void extract_to(const std::filesystem::path& directory,
                  unsigned long long limit = kMaxUnpackedBytes) const;

  static constexpr unsigned long long kMaxUnpackedBytes = 4ULL << 30;  // a zip bomb, not an FMU

 private:
  [[nodiscard]] unsigned long long declared_size(std::uint64_t index) const;
  // Reads entry `index` to its end into `sink`, at most `declared` bytes (FmuError beyond).
  void read_entry(std::uint64_t index, unsigned long long declared,
                  const std::function<void(const char*, std::size_t)>& sink) const;

  std::filesystem::path path_;
  ::zip* archive_ = nullptr;
  std::vector<std::string> entries_;
};

}  // namespace simverify::fmu::detail
