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
