#include "encoding.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <utility>

namespace simverify::framework::yaml {
namespace {

bool xml_char(std::uint32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

// The code point of the UTF-8 sequence at text[i] and its length; length 0 when the bytes
// there are not UTF-8 (a stray continuation byte, a truncated or overlong sequence).
std::pair<std::uint32_t, std::size_t> decode(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[i + k]); };
  const std::uint8_t lead = byte(0);
  if (lead < 0x80) return {lead, 1};
  std::size_t length = 0;
  std::uint32_t c = 0;
  std::uint32_t smallest = 0;
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
  if (c < smallest) return {0, 0};
  return {c, length};
}

}  // namespace

bool check_encoding(std::string_view text, LocatedErrors& errors) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto [c, length] = decode(text, i);
    const SourceLocation at{errors.file(), line, column};
    if (length == 0) {
      errors.error(at, fmt::format("invalid UTF-8 (byte 0x{:02x}); save the file as UTF-8",
                                   static_cast<std::uint8_t>(text[i])));
      return false;
    }
    if (!xml_char(c)) {
      errors.error(at, fmt::format("character U+{:04X} is not allowed: reports are XML and "
                                   "JSON, which cannot hold it",
                                   c));
      return false;
    }
    i += length;
    if (c == '\n') {
      ++line, column = 1;
    } else {
      ++column;
    }
  }
  return true;
}

}  // namespace simverify::framework::yaml
