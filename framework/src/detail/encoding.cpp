#include "detail/encoding.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <utility>

namespace simverify::framework::detail {

std::pair<char32_t, std::size_t> decode_utf8(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[i + k]); };
  const std::uint8_t lead = byte(0);
  if (lead < 0x80) return {lead, 1};
  std::size_t length = 0;
  char32_t c = 0;
  char32_t smallest = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, c = lead & 0x1Fu, smallest = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, c = lead & 0x0Fu, smallest = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, c = lead & 0x07u, smallest = 0x10000;
  } else {
    return {0, 0};
  }
  if (i + length > text.size()) return {0, 0};
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return {0, 0};
    c = (c << 6) | (byte(k) & 0x3Fu);
  }
  // Overlong encodings, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
  if (c < smallest || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) return {0, 0};
  return {c, length};
}

bool xml_char(char32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

std::string writable_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_writable_character(
      text, [&](char32_t, std::string_view bytes) { out.append(bytes); }, [&] { out += "\uFFFD"; });
  return out;
}

namespace {

// Unicode's bidirectional controls (marks, embeddings, overrides, isolates): a right-to-left
// override shows "verdict: ELBASAELER" as "RELEASABLE" and reorders the rest of the line.
bool bidi_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

}  // namespace

std::string terminal_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto [c, length] = decode_utf8(text, i);
    if (length == 0) {
      out += fmt::format("\\x{:02x}", static_cast<std::uint8_t>(text[i]));
      ++i;
      continue;
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || bidi_control(c)) {
      out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(c));
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

std::optional<EncodingProblem> find_encoding_problem(std::string_view text, Allowed allowed) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto [c, length] = decode_utf8(text, i);
    if (length == 0) {
      return EncodingProblem{line, column,
                             fmt::format("invalid UTF-8 (byte 0x{:02x}); save the file as UTF-8",
                                         static_cast<std::uint8_t>(text[i]))};
    }
    if (allowed == Allowed::xml_characters && !xml_char(c)) {
      return EncodingProblem{line, column,
                             fmt::format("character U+{:04X} is not allowed: reports are XML and "
                                         "JSON, which cannot hold it",
                                         static_cast<std::uint32_t>(c))};
    }
    i += length;
    if (c == '\n') {
      ++line, column = 1;
    } else {
      ++column;
    }
  }
  return std::nullopt;
}

}  // namespace simverify::framework::detail
