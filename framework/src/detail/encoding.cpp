#include "detail/encoding.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <utility>

namespace simverify::framework::detail {

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
