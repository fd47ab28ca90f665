#include "file_text.hpp"

#include "detail/read_file.hpp"

#include <fmt/format.h>

namespace simverify::framework::yaml {
namespace {

namespace fs = std::filesystem;

// An error about a whole file: at its start, so it reads file:1:1 like every other error.
Diagnostic at_start(const fs::path& path, std::string message) {
  return {SourceLocation{path.string(), 1, 1}, std::move(message)};
}

}  // namespace

Diagnostic not_a_regular_file(const fs::path& path, const std::string& kind,
                              std::string_view what) {
  return at_start(
      path, fmt::format("'{}' is {}, not a {}; only regular files are read",
                        path.filename().string(), kind.empty() ? "no longer there" : kind, what));
}

std::optional<std::string> read_file_text(const fs::path& path, std::string_view what,
                                          Diagnostics& errors) {
  try {
    return detail::read_regular_file(path, fmt::format("the {}", what), kMaxFileBytes);
  } catch (const detail::ReadError& e) {
    errors.push_back(at_start(path, e.reason()));
    return std::nullopt;
  }
}

}  // namespace simverify::framework::yaml
