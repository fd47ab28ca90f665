#pragma once
// Loads and validates requirement files (the format page). Nothing runs when any file is
// invalid: load() returns every problem it found, each with file, line and column.
#include <simverify/framework/component.hpp>
#include <simverify/framework/diagnostics.hpp>
#include <simverify/framework/requirement.hpp>

#include <filesystem>
#include <vector>

namespace simverify::framework {

struct LoadResult {
  std::vector<Requirement> requirements;
  Diagnostics errors;
  std::vector<std::filesystem::path> files;
  [[nodiscard]] bool ok() const { return errors.empty(); }
};

// Each path is a file or a folder searched recursively for *.yaml (sorted, so the order of
// requirements is deterministic). Components are looked up in `registry` to validate
// component names, condition axes and measures.
[[nodiscard]] LoadResult load_requirements(const std::vector<std::filesystem::path>& paths,
                                           const ComponentRegistry& registry);

// Parses one document's text (used by load_requirements and by tests/fuzzers).
void parse_requirements(const std::string& text, const std::string& file_name,
                        const ComponentRegistry& registry, LoadResult& into);

}  // namespace simverify::framework
