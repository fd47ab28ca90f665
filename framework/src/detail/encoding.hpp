#pragma once
// Internal: the characters an input file may hold. Strings from requirement and project files
// and from results.json end up in results.json, junit.xml and the HTML report, so a file must be
// valid UTF-8 of characters XML 1.0 allows (tab, line breaks and everything from U+0020 except
// surrogates, U+FFFE and U+FFFF): refused on reading, with the place, rather than written out
// as a broken report.
#include <simverify/core/text.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace simverify::framework::detail {

struct EncodingProblem {
  int line = 1;  // 1-based, of the offending character
  int column = 1;
  std::string message;  // "invalid UTF-8 (byte 0xff); save the file as UTF-8"
};

// Which code points are allowed besides being valid UTF-8: those of XML 1.0 (input that reports
// will hold verbatim), or any (JSON, which holds every code point; its writers escape them).
enum class Allowed { xml_characters, any_code_point };

// The first character of `text` that is not valid UTF-8 or not allowed, or nothing.
[[nodiscard]] std::optional<EncodingProblem> find_encoding_problem(
    std::string_view text, Allowed allowed = Allowed::xml_characters);

// The code point of the UTF-8 sequence at text[i] and its length (0: not UTF-8).
using core::decode_utf8;

// A code point XML 1.0 allows in a document.
[[nodiscard]] bool xml_char(char32_t c);

// The one rule for text simverify writes (results.json, junit.xml, and through results.json
// the HTML report), whatever it got (a component's message, a subprocess's output, a file
// name): valid UTF-8 of characters XML 1.0 allows. Calls `character(code_point, bytes)` for
// each character of `text` that is allowed, and `replaced()` for each byte that begins no
// UTF-8 character and each character XML forbids (U+FFFE, U+FFFF, C0 controls other than tab,
// line feed and carriage return): the writers put U+FFFD there.
template <class Character, class Replaced>
void for_each_writable_character(std::string_view text, Character&& character,
                                 Replaced&& replaced) {
  for (std::size_t i = 0; i < text.size();) {
    const auto [c, length] = decode_utf8(text, i);
    if (length == 0) {
      replaced();
      ++i;
      continue;
    }
    if (xml_char(c)) {
      character(c, text.substr(i, length));
    } else {
      replaced();
    }
    i += length;
  }
}

// `text` by that rule, for writers that print it as it is (the console).
[[nodiscard]] std::string writable_text(std::string_view text);

// `text` as one console line: control characters and bidirectional controls escaped (the one
// rule, core/text.hpp). For each console line built from text a file brought (a tampered
// results.json's id, status or message).
using core::terminal_text;

}  // namespace simverify::framework::detail
