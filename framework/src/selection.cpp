#include "selection.hpp"

#include "detail/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework {
namespace {

constexpr std::size_t kIdsShown = 8;

// "A, B, C" or "A, ..., H and 12 more".
std::string some_ids(const std::vector<std::string>& ids) {
  if (ids.size() <= kIdsShown) return detail::join(ids);
  const std::vector<std::string> first(ids.begin(), ids.begin() + kIdsShown);
  return fmt::format("{}, ... and {} more", detail::join(first), ids.size() - kIdsShown);
}

// Edits from a to b, a swap of two neighbouring characters counting as one (the optimal
// string alignment distance): "NIOSE" is one edit from "NOISE".
std::size_t typo_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// What a prefix glob ("QC-SIS-*") may have meant: the ids' prefixes of about its length, as
// globs ("QC-SYS-*"). Only a genuinely close one: at most a third of the literal's characters
// changed, as plain names allow. Plain names allow 2 changes even when short, so that a swapped
// pair passes; here a swap is one change, and a short literal half rewritten ("NOPE*" against
// "NOI*") is no typo of it; nor is one of one or two characters ("XO*" against "NO*"). On a
// tie, the prefix as long as the literal.
std::string prefix_glob_hint(std::string_view stem, const std::vector<std::string>& ids) {
  if (stem.size() < 3) return "";
  std::set<std::string> prefixes;
  for (const auto& id : ids) {
    // One character more or less: one left out of the glob, or one too many.
    for (std::size_t n = stem.size() - 1; n <= stem.size() + 1; ++n) {
      if (n <= id.size()) prefixes.insert(id.substr(0, n));
    }
  }
  const std::size_t allowed = stem.size() / 3;
  std::string best;
  std::size_t best_distance = allowed + 1;
  for (const auto& prefix : prefixes) {
    const std::size_t d = typo_distance(stem, prefix);
    if (d < best_distance || (d == best_distance && !best.empty() && prefix.size() == stem.size() &&
                              best.size() != stem.size())) {
      best_distance = d;
      best = prefix;
    }
  }
  return best.empty() ? std::string() : " (did you mean '" + best + "*'?)";
}

// The hint for a filter that matches nothing: for a prefix glob the nearest prefix, else the
// nearest id.
std::string filter_hint(std::string_view filter, const std::vector<std::string>& ids) {
  const std::string_view stem = filter.substr(0, filter.empty() ? 0 : filter.size() - 1);
  if (filter.ends_with('*') && stem.find_first_of("*?") == std::string_view::npos) {
    return prefix_glob_hint(stem, ids);
  }
  return detail::did_you_mean(filter, ids);
}

}  // namespace

bool is_selected(const Requirement& r, const std::optional<Level>& level, std::string_view filter) {
  if (level && r.level != *level) return false;
  return filter.empty() || detail::glob_match(filter, r.id);
}

std::optional<std::string> empty_selection(const std::vector<Requirement>& requirements,
                                           const std::optional<Level>& level,
                                           std::string_view filter) {
  // A project may have no requirement at some level: without a filter that is an empty,
  // passing selection (empty_level says so), not a mistake to stop at.
  if (requirements.empty() || filter.empty()) return std::nullopt;
  if (std::any_of(requirements.begin(), requirements.end(),
                  [&](const Requirement& r) { return is_selected(r, level, filter); })) {
    return std::nullopt;
  }
  std::vector<std::string> matched;  // by the filter alone
  std::vector<std::string> ids;
  for (const auto& r : requirements) {
    ids.push_back(r.id);
    if (is_selected(r, std::nullopt, filter)) matched.push_back(r.id);
  }
  if (matched.empty()) {
    return fmt::format("--filter '{}' matches no requirement id{}; the {} id(s): {}", filter,
                       filter_hint(filter, ids), ids.size(), some_ids(ids));
  }
  // The filter matches, the level does not: say at which levels they are.
  std::vector<std::string> levels;
  for (const Level l : {Level::unit, Level::integration, Level::system}) {
    std::size_t n = 0;
    for (const auto& r : requirements) n += is_selected(r, l, filter) ? 1 : 0;
    if (n > 0) levels.push_back(fmt::format("{} at {}", n, to_string(l)));
  }
  return fmt::format(
      "--level {} selects no requirement that --filter '{}' matches; there are {} "
      "({})",
      to_string(*level), filter, detail::join(levels), some_ids(matched));
}

std::optional<std::string> empty_level(const std::vector<Requirement>& requirements,
                                       const std::optional<Level>& level, std::string_view filter) {
  if (!level || !filter.empty()) return std::nullopt;
  std::array<std::size_t, 3> at{};
  for (const auto& r : requirements) {
    if (r.level == *level) return std::nullopt;
    ++at[static_cast<std::size_t>(r.level)];
  }
  std::vector<std::string> levels;
  for (const Level l : {Level::unit, Level::integration, Level::system}) {
    if (at[static_cast<std::size_t>(l)] > 0) {
      levels.push_back(fmt::format("{} at {}", at[static_cast<std::size_t>(l)], to_string(l)));
    }
  }
  return fmt::format("no requirement is at level {}{}", to_string(*level),
                     levels.empty() ? "" : fmt::format(" (there are {})", detail::join(levels)));
}

std::string narrowing(std::string_view level, std::string_view filter) {
  std::string text;
  if (!level.empty()) text = fmt::format("--level {}", level);
  if (!filter.empty()) text += fmt::format("{}--filter '{}'", text.empty() ? "" : ", ", filter);
  return text;
}

}  // namespace simverify::framework
