#pragma once
// The requirement packs the adapter executables load: the folders in SIMVERIFY_REQUIREMENTS
// (':'-separated), else the source tree's level folders. requirements/examples/ is not among
// the defaults: it holds packs that fail on purpose (documentation), not part of the verdict.
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace simverify::adapters {

inline std::vector<std::filesystem::path> shipped_pack_paths() {
  const char* env = std::getenv("SIMVERIFY_REQUIREMENTS");
  std::stringstream in(env != nullptr ? env : SIMVERIFY_REQUIREMENTS_DIR);
  std::vector<std::filesystem::path> paths;
  for (std::string part; std::getline(in, part, ':');) {
    if (!part.empty()) paths.emplace_back(part);
  }
  return paths;
}

}  // namespace simverify::adapters
