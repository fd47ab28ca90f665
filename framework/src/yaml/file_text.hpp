#pragma once
// Internal: the text of a YAML input file (a requirement file, the project file) as
// detail::read_regular_file reads it, its refusals turned into located errors (file:1:1).
#include <simverify/framework/diagnostics.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace simverify::framework::yaml {

// Files written by hand are far smaller; anything larger is not one of ours, and reading it
// whole would only exhaust memory.
inline constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{64} << 20;

// "'name' is a FIFO, not a <what>; ..." at path:1:1; `kind` as detail::special_kind says it.
[[nodiscard]] Diagnostic not_a_regular_file(const std::filesystem::path& path,
                                            const std::string& kind, std::string_view what);

// The file's whole text; nothing, with one diagnostic in `errors`, when it cannot be read,
// is not a regular file or is larger than kMaxFileBytes. `what` names the file in messages
// ("requirement file").
[[nodiscard]] std::optional<std::string> read_file_text(const std::filesystem::path& path,
                                                        std::string_view what, Diagnostics& errors);

}  // namespace simverify::framework::yaml
