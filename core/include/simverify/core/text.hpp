#pragma once
// Text for messages about names, shared by every layer: lists of known names and the
// spelling hint every "unknown name" error carries.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
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
// The code point of the UTF-8 sequence at text[i] (i < text.size()) and its length; length 0
// when the bytes there are not UTF-8 (a stray continuation byte, a truncated or overlong
// sequence, a surrogate).
[[nodiscard]] std::pair<char32_t, std::size_t> decode_utf8(std::string_view text, std::size_t i);
// `text` as one line a terminal shows as it is: every control character (C0 with tab and line
// breaks, DEL, C1) and bidirectional control (U+202E ...) as an escape `\u001b`, a byte that
// is no UTF-8 as `\xff`. The one escaping rule for text that came from outside (a tampered
// results.json's id, a program's standard error): it cannot clear the screen, move the cursor,
// reorder what the line shows, begin a line of its own ("gate: RELEASABLE") or, holding a NUL,
// be cut where C strings end.
[[nodiscard]] std::string terminal_text(std::string_view text);
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);
// " (did you mean 'x'?)" for the closest candidate within a small edit distance, or the one
// candidate the word abbreviates; else "".
[[nodiscard]] std::string did_you_mean(std::string_view word,
                                       const std::vector<std::string>& candidates);

}  // namespace simverify::core
