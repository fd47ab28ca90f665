#include "detail/atomic_file.hpp"

#include <unistd.h>
#include <fstream>
#include <stdexcept>

namespace simverify::framework::detail {

void write_atomically(const std::filesystem::path& path, std::string_view content) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  auto temp = path;
  temp += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + temp.string());
  }
  std::filesystem::rename(temp, path);
}

}  // namespace simverify::framework::detail
