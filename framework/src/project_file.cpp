#include "project_file.hpp"

#include "detail/read_file.hpp"
#include "detail/text.hpp"
#include "yaml/document.hpp"
#include "yaml/file_text.hpp"
#include "yaml/located_errors.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace simverify::framework {
namespace {

// Validates like the requirement loader: every problem is collected with its position, so a
// user fixes the whole file in one pass.
class ProjectParser {
 public:
  ProjectParser(const std::string& file, ProjectFileResult& out)
      : errors_(file, out.errors), out_(out) {
    out_.project.file = file;
  }

  void parse(const std::string& text) {
    const auto document = yaml::read_document(text, errors_);
    if (!document) return;
    const YAML::Node& root = *document;
    if (root.IsNull()) {
      // yaml-cpp has no position for an empty document: point at its start.
      errors_.error(SourceLocation{errors_.file(), 1, 1},
                    "the project file is empty; expected a `gate:` section");
      return;
    }
    if (!root.IsMap()) {
      error(root.Mark(), "expected a mapping with a `gate:` section at the top of the file");
      return;
    }
    for (const auto& entry : root) {
      const auto key = entry.first.Scalar();
      if (key != "gate") {
        error(entry.first.Mark(), fmt::format("unknown top-level key '{}'; expected 'gate'{}", key,
                                              detail::did_you_mean(key, {"gate"})));
      }
    }
    const YAML::Node gate = root["gate"];
    if (!gate) {
      error(root.Mark(), "expected a `gate:` section");
      return;
    }
    parse_gate(gate);
  }

 private:
  void parse_gate(const YAML::Node& gate) {
    if (!gate.IsMap()) {
      error(gate.Mark(), "expected `gate:` to be a mapping with `levels:` and/or `coverage:`");
      return;
    }
    for (const auto& entry : gate) {
      const auto key = entry.first.Scalar();
      if (key == "levels") {
        parse_levels(entry.second);
      } else if (key == "coverage") {
        parse_coverage(entry.second);
      } else {
        error(entry.first.Mark(),
              fmt::format("unknown key '{}' in `gate:`; expected 'levels' or 'coverage'{}", key,
                          detail::did_you_mean(key, {"levels", "coverage"})));
      }
    }
  }

  void parse_levels(const YAML::Node& node) {
    if (!node.IsSequence()) {
      error(node.Mark(), "expected `levels:` to be a list such as [unit, integration, system]");
      return;
    }
    for (const auto& item : node) {
      const auto level = item.IsScalar() ? parse_level(item.Scalar()) : std::nullopt;
      if (!level) {
        error(item.Mark(), fmt::format("expected a level (unit, integration or system), got '{}'",
                                       item.IsScalar() ? item.Scalar() : "a collection"));
        continue;
      }
      auto& levels = out_.project.levels;
      if (std::find(levels.begin(), levels.end(), *level) != levels.end()) {
        error(item.Mark(), fmt::format("level '{}' is listed twice", item.Scalar()));
        continue;
      }
      levels.push_back(*level);
    }
  }

  void parse_coverage(const YAML::Node& node) {
    if (!node.IsMap()) {
      error(node.Mark(), "expected `coverage:` to be a mapping such as {line: 80, branch: 50}");
      return;
    }
    for (const auto& entry : node) {
      const auto key = entry.first.Scalar();
      if (key == "line") {
        out_.project.coverage.line = percent(entry.second);
      } else if (key == "branch") {
        out_.project.coverage.branch = percent(entry.second);
      } else {
        error(entry.first.Mark(),
              fmt::format("unknown key '{}' in `coverage:`; expected 'line' or 'branch'{}", key,
                          detail::did_you_mean(key, {"line", "branch"})));
      }
    }
  }

  std::optional<double> percent(const YAML::Node& node) {
    double value = std::nan("");
    if (node.IsScalar()) {
      std::istringstream in(node.Scalar());
      in >> value;
      if (!in || !in.eof()) value = std::nan("");
    }
    if (!(value >= 0.0 && value <= 100.0)) {
      error(node.Mark(), fmt::format("expected a percentage between 0 and 100, got '{}'",
                                     node.IsScalar() ? node.Scalar() : "a collection"));
      return std::nullopt;
    }
    return value;
  }

  void error(const YAML::Mark& mark, std::string message) {
    errors_.error(mark, std::move(message));
  }

  yaml::LocatedErrors errors_;
  ProjectFileResult& out_;
};

}  // namespace

ProjectFileResult parse_project_file(const std::string& text, const std::string& file_name) {
  ProjectFileResult result;
  ProjectParser(file_name, result).parse(text);
  return result;
}

ProjectFileResult load_project_file(const std::filesystem::path& path) {
  ProjectFileResult result;
  result.project.file = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
    result.errors.push_back({SourceLocation{path.string(), 0, 0}, "cannot read the project file"});
    return result;
  }
  const auto text = yaml::read_file_text(path, "project file", result.errors);
  return text ? parse_project_file(*text, path.string()) : result;
}

std::optional<std::filesystem::path> project_file_beside(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  for (const auto& path : paths) {
    std::error_code ec;
    // A folder's own; a requirement file's is the one beside it, in its folder, as if its
    // folder had been given (`run pack/p.yaml` and `run pack` get the same settings).
    fs::path folder;
    if (fs::is_directory(path, ec)) {
      folder = path;
    } else if (fs::exists(path, ec)) {
      folder = fs::absolute(path, ec).parent_path();
    } else {
      continue;
    }
    const fs::path file = fs::absolute(folder / kProjectFileName, ec).lexically_normal();
    if (fs::is_regular_file(file, ec)) return file;
    // Something by that name that is no file must not quietly mean "no gate settings".
    if (fs::symlink_status(file, ec).type() != fs::file_type::not_found) {
      const std::string kind = detail::special_kind(file);
      throw std::runtime_error(fmt::format("{}: the project file is {}, not a regular file",
                                           file.string(),
                                           kind.empty() ? std::string("a folder") : kind));
    }
  }
  return std::nullopt;
}

}  // namespace simverify::framework
