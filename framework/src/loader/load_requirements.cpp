// The loader's entry point: which files a list of paths names, each file parsed, then the
// checks across files.
#include "cross_file.hpp"

#include <simverify/framework/loader.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;

Diagnostic file_error(const fs::path& path, std::string message) {
  Diagnostic d;
  d.location.file = path.string();
  d.message = std::move(message);
  return d;
}

// The requirement files of a folder, recursively, sorted so the order of requirements is
// deterministic.
std::vector<fs::path> find_requirement_files(const fs::path& folder) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    // Sub-folders named `examples` hold demonstrations (some fail on purpose, e.g.
    // requirements/examples/failing): they run only when named explicitly.
    if (it->is_directory() && it->path().filename() == "examples") {
      it.disable_recursion_pending();
      continue;
    }
    // simverify.yaml is the project file (gate settings), not a requirement pack.
    if (it->is_regular_file() && it->path().extension() == ".yaml" &&
        it->path().filename() != "simverify.yaml") {
      found.push_back(it->path());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

LoadResult load_requirements(const std::vector<fs::path>& paths,
                             const ComponentRegistry& registry) {
  LoadResult out;
  for (const auto& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      auto found = find_requirement_files(path);
      if (found.empty()) {
        out.errors.push_back(file_error(path, "folder contains no *.yaml files"));
      }
      out.files.insert(out.files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(path, ec)) {
      out.files.push_back(path);
    } else {
      out.errors.push_back(file_error(path, "no such file or folder"));
    }
  }
  for (const auto& file : out.files) {
    std::ifstream in(file);
    if (!in) {
      out.errors.push_back(file_error(file, "cannot read file"));
      continue;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    parse_requirements(buffer.str(), file.string(), registry, out);
  }
  loader::check_cross_file(out);
  if (!out.ok()) out.requirements.clear();
  return out;
}

}  // namespace simverify::framework
