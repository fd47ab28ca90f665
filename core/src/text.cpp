#include <simverify/core/text.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace simverify::core {

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string join_or_none(const std::vector<std::string>& items) {
  return items.empty() ? std::string("none") : join(items);
}

namespace {

// `text` is the start of a text of `total` bytes.
std::string excerpt_of(std::string_view text, std::size_t total, std::size_t longest) {
  std::size_t cut = std::min(text.size(), longest);
  while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) {
    --cut;  // not inside a UTF-8 sequence
  }
  // Escaped as the console shows any outside text: no control or bidi character of a
  // file's content may end or reorder the line the excerpt is quoted in.
  std::string out = terminal_text(text.substr(0, cut));
  if (cut < total) out += "... (" + std::to_string(total) + " bytes)";
  return out;
}

}  // namespace

std::string excerpt(std::string_view text, std::size_t longest) {
  return excerpt_of(text, text.size(), longest);
}

std::string join_excerpt(const std::vector<std::string>& items, std::size_t longest) {
  std::string start;  // the join's first bytes, enough for the excerpt
  std::size_t total = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string_view sep = i == 0 ? "" : ", ";
    total += sep.size() + items[i].size();
    if (start.size() <= longest) start.append(sep).append(items[i], 0, longest + 1);
  }
  return excerpt_of(start, total, longest);
}

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

namespace {

// Unicode's bidirectional controls (marks, embeddings, overrides, isolates): a right-to-left
// override shows "verdict: ELBASAELER" as "RELEASABLE" and reorders the rest of the line.
bool bidi_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

// `prefix` and the `digits` lowest hex digits of `value`, lower case: \u001b.
std::string hex_escape(std::string_view prefix, std::uint32_t value, int digits) {
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string out(prefix);
  for (int d = digits - 1; d >= 0; --d) out += kHex[(value >> (4 * d)) & 0xFU];
  return out;
}

}  // namespace

std::string terminal_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto [c, length] = decode_utf8(text, i);
    if (length == 0) {
      out += hex_escape("\\x", static_cast<std::uint8_t>(text[i]), 2);
      ++i;
      continue;
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || bidi_control(c)) {
      out += hex_escape("\\u", static_cast<std::uint32_t>(c), 4);
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  // An abbreviation (chassis_accel) is far from its full name in edits but unmistakable.
  if (best.empty() && word.size() >= 3) {
    const auto starts = [&](const std::string& c) { return c.starts_with(word); };
    if (std::count_if(candidates.begin(), candidates.end(), starts) == 1)
      best = *std::find_if(candidates.begin(), candidates.end(), starts);
  }
  return best.empty() ? std::string() : " (did you mean '" + best + "'?)";
}

}  // namespace simverify::core
