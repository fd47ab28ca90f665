#include <simverify/core/text.hpp>

#include <algorithm>
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
  std::string out;
  out.reserve(cut + 24);
  for (const char c : text.substr(0, cut)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20U || byte == 0x7FU) {
      constexpr std::string_view kHex = "0123456789abcdef";
      out += "\\u00";
      out += kHex[byte >> 4U];
      out += kHex[byte & 0xFU];
    } else {
      out += c;
    }
  }
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
