#pragma once
// A private temporary folder (mkdtemp: a fresh name, mode 0700) removed with everything in it
// when its owner goes: a `command` point's working folder, the workers' TMPDIR.
#include <filesystem>
#include <string_view>

namespace simverify::core {

// The system's temporary folder (TMPDIR), or /tmp when TMPDIR names none.
[[nodiscard]] std::filesystem::path temporary_base();

class TemporaryFolder {
 public:
  // Makes `parent`/`prefix`XXXXXX (parent empty: temporary_base()); throws std::runtime_error
  // "cannot create a temporary folder in PARENT: <why>".
  explicit TemporaryFolder(std::string_view prefix, const std::filesystem::path& parent = {});
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace simverify::core
