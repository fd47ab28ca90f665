#pragma once
// Internal: write a file so readers see either the old or the complete new content
// (temporary file in the same folder, then rename).
#include <filesystem>
#include <string_view>

namespace simverify::framework::detail {

void write_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace simverify::framework::detail
