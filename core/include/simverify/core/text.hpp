#pragma once
// Text for messages about names, shared by every layer: lists of known names and the
// spelling hint every "unknown name" error carries.
#include <string>
#include <string_view>
#include <vector>

namespace simverify::core {

[[nodiscard]] std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");
// As join, but "none" for an empty list: "its parameters: none".
[[nodiscard]] std::string join_or_none(const std::vector<std::string>& items);
// At most about `longest` bytes of `text`, for a message that quotes what a file holds: control
// characters as \u escapes, cut at a character boundary, "... (N bytes)" when cut. A message
// stays one line of sensible size, however large or strange the file.
[[nodiscard]] std::string excerpt(std::string_view text, std::size_t longest = 80);
// join(items) as an excerpt: a header of a million columns is not listed whole.
[[nodiscard]] std::string join_excerpt(const std::vector<std::string>& items,
                                       std::size_t longest = 200);
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);
// " (did you mean 'x'?)" for the closest candidate within a small edit distance, or the one
// candidate the word abbreviates; else "".
[[nodiscard]] std::string did_you_mean(std::string_view word,
                                       const std::vector<std::string>& candidates);

}  // namespace simverify::core
