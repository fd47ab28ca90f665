#pragma once
// Internal: the project file `requirements/simverify.yaml`, which sets the release gate
// (Def 5.17: which levels must have run) and the test-ready coverage bars (Def 5.20).
//
//   gate:
//     levels: [unit, integration, system]   # each must have run (at least one requirement)
//     coverage: {line: 80, branch: 50}      # percent; omitted bars are not checked
#include <simverify/framework/diagnostics.hpp>
#include <simverify/framework/requirement.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {

struct CoverageBars {
  std::optional<double> line;    // percent of lines executed, 0..100
  std::optional<double> branch;  // percent of branches taken, 0..100
};

struct ProjectFile {
  std::string file;           // where it was read from; empty for the defaults
  std::vector<Level> levels;  // levels that must have run, in file order
  CoverageBars coverage;      // test-ready bars (Def 5.20)
};

struct ProjectFileResult {
  ProjectFile project;
  Diagnostics errors;  // each "file:line:col: error: ..."
  [[nodiscard]] bool ok() const { return errors.empty(); }
};

// The file name the requirement loader skips when it globs a folder for *.yaml.
inline constexpr const char* kProjectFileName = "simverify.yaml";

// Parses the text of a project file; `file_name` only labels the diagnostics.
[[nodiscard]] ProjectFileResult parse_project_file(const std::string& text,
                                                   const std::string& file_name);

// The project file of the requirement files and folders `paths`: the simverify.yaml directly
// inside the first of them that has one (absolute; a file's is the one in its folder), else
// nothing. Folders above are not searched, for a folder nor for a file. `run` records it; `gate`
// and `report` look it up again beside the requirement files they hold the results to, so a
// checkout that moved keeps its settings and an edited results.json cannot drop them. Throws
// std::runtime_error when that name is taken by something else (a FIFO, a folder, a link to
// nothing).
[[nodiscard]] std::optional<std::filesystem::path> project_file_beside(
    const std::vector<std::string>& paths);

// Reads and parses `path`; a missing or unreadable file is one diagnostic.
[[nodiscard]] ProjectFileResult load_project_file(const std::filesystem::path& path);

}  // namespace simverify::framework
