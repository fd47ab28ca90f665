#pragma once
// Internal: the requirements `--level` and `--filter` select (run and list), and the usage
// error when a filter selects none: a run of nothing would only say "NOT RELEASABLE", with no
// word that the filter was misspelt. An empty level is no error (empty_level).
#include <simverify/framework/requirement.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework {

// `r` is at `level` (any, when empty) and its id matches the glob `filter` (any, when empty).
[[nodiscard]] bool is_selected(const Requirement& r, const std::optional<Level>& level,
                               std::string_view filter);

// Nothing when some requirement is selected, or when only --level (no --filter) selects none;
// else why none is, naming the option, the nearest id pattern ("did you mean 'QC-SYS-*'?") and
// a few ids or the levels there are: "--filter 'NOPE*' matches no requirement id; the 3 ids:
// A, B, C". A filter that selects nothing is a mistake; a level may be empty in a project.
[[nodiscard]] std::optional<std::string> empty_selection(
    const std::vector<Requirement>& requirements, const std::optional<Level>& level,
    std::string_view filter);

// When --level alone (no --filter) selects no requirement: "no requirement is at level unit
// (there are 2 at integration, 8 at system)". An empty level passes (exit 0): a CI job per
// level must not fail for a project without requirements at that level.
[[nodiscard]] std::optional<std::string> empty_level(const std::vector<Requirement>& requirements,
                                                     const std::optional<Level>& level,
                                                     std::string_view filter);

// How a run was narrowed, as the options read: "--level unit, --filter 'QC-*'"; empty when
// it was not (both empty).
[[nodiscard]] std::string narrowing(std::string_view level, std::string_view filter);

}  // namespace simverify::framework
