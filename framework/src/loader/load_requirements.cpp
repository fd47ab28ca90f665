// The loader's entry point: which files a list of paths names, each file read and parsed, then
// the checks across files.
#include "cross_file.hpp"
#include "detail/read_file.hpp"
#include "yaml/file_text.hpp"

#include <simverify/framework/loader.hpp>

#include <algorithm>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;

constexpr const char* kWhat = "requirement file";

// The requirement files of a folder, recursively, sorted so the order of requirements is
// deterministic. A `.yaml` entry that is not a regular file is an error, never skipped.
std::vector<fs::path> find_requirement_files(const fs::path& folder, Diagnostics& errors) {
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
    if (it->path().extension() != ".yaml" || it->path().filename() == "simverify.yaml") continue;
    if (it->is_regular_file()) {
      found.push_back(it->path());
    } else if (!it->is_directory()) {
      errors.push_back(
          yaml::not_a_regular_file(it->path(), detail::special_kind(it->path()), kWhat));
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

Diagnostic path_error(const fs::path& path, std::string message) {
  return {SourceLocation{path.string(), 0, 0}, std::move(message)};
}

}  // namespace

LoadResult load_requirements(const std::vector<fs::path>& paths,
                             const ComponentRegistry& registry) {
  LoadResult out;
  for (const auto& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      const std::size_t errors_before = out.errors.size();
      auto found = find_requirement_files(path, out.errors);
      if (found.empty() && out.errors.size() == errors_before) {
        out.errors.push_back(path_error(path, "folder contains no *.yaml files"));
      }
      out.files.insert(out.files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(path, ec)) {
      out.files.push_back(path);
    } else if (const auto kind = detail::special_kind(path); !kind.empty()) {
      out.errors.push_back(yaml::not_a_regular_file(path, kind, kWhat));
    } else {
      out.errors.push_back(path_error(path, "no such file or folder"));
    }
  }
  for (const auto& file : out.files) {
    if (const auto text = yaml::read_file_text(file, kWhat, out.errors)) {
      parse_requirements(*text, file.string(), registry, out);
    }
  }
  loader::check_cross_file(out);
  if (!out.ok()) out.requirements.clear();
  return out;
}

}  // namespace simverify::framework
