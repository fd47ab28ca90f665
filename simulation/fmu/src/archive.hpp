#pragma once
// Internal: an FMU is a zip archive (FMI 2.0 and 3.0, "FMU Distribution"), read with libzip.
#include <filesystem>
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
  // The whole entry as text, nothing when there is no such entry.
  [[nodiscard]] std::optional<std::string> read(std::string_view name) const;
  // Writes every entry below `directory` (which must exist). Entries that would land outside
  // it (absolute names, ".." components) or unpack to more than kMaxUnpackedBytes are
  // refused with an FmuError before anything is written.
  void extract_to(const std::filesystem::path& directory) const;

  static constexpr unsigned long long kMaxUnpackedBytes = 4ULL << 30;  // a zip bomb, not an FMU

 private:
  std::filesystem::path path_;
  ::zip* archive_ = nullptr;
  std::vector<std::string> entries_;
};

}  // namespace simverify::fmu::detail
