#pragma once
// Writes an output file so readers see either the old or the complete new content: a
// temporary file beside it, then rename. The one place every file simverify writes goes
// through (results, series, JUnit, gate decisions, dumps).
#include <filesystem>
#include <string_view>

namespace simverify::core {

// Throws std::runtime_error "cannot write PATH: <why>" and leaves no temporary file behind
// (a full disk names errno). Only a regular file is replaced: a FIFO, socket, device or
// folder at `path` is the user's, so it is refused untouched. A symbolic link to a regular
// file keeps the link and replaces the file it points to.
void write_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace simverify::core
