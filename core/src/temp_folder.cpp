#include <simverify/core/temp_folder.hpp>

#include <stdlib.h>  // mkdtemp (POSIX)

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace simverify::core {

namespace fs = std::filesystem;

fs::path temporary_base() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  return ec ? fs::path("/tmp") : base;
}

TemporaryFolder::TemporaryFolder(std::string_view prefix, const fs::path& parent) {
  const fs::path base = parent.empty() ? temporary_base() : parent;
  std::string pattern = (base / (std::string(prefix) + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a temporary folder in " + base.string() + ": " +
                             std::strerror(errno));
  }
  path_ = std::move(pattern);
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

}  // namespace simverify::core
