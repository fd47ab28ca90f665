#include "selection.hpp"

#include "detail/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

namespace simverify::framework {
namespace {

constexpr std::size_t kIdsShown = 8;

// "A, B, C" or "A, ..., H and 12 more".
std::string some_ids(const std::vector<std::string>& ids) {
  if (ids.size() <= kIdsShown) return detail::join(ids);
  const std::vector<std::string> first(ids.begin(), ids.begin() + kIdsShown);
  return fmt::format("{}, ... and {} more", detail::join(first), ids.size() - kIdsShown);
}

// What the glob may have meant: the ids themselves, or for a prefix glob ("QC-SIS-*") the
// ids' prefixes of about its length as globs ("QC-SYS-*").
std::vector<std::string> filter_candidates(std::string_view filter,
                                           const std::vector<std::string>& ids) {
  const std::string_view stem = filter.substr(0, filter.size() - 1);
  if (!filter.ends_with('*') || stem.find_first_of("*?") != std::string_view::npos) return ids;
  std::set<std::string> prefixes;
  for (const auto& id : ids) {
    // One letter more or less: a letter left out of the glob, or one too many.
    for (std::size_t n = std::max<std::size_t>(stem.size(), 2) - 1; n <= stem.size() + 1; ++n) {
      if (n <= id.size()) prefixes.insert(id.substr(0, n) + "*");
    }
  }
  return {prefixes.begin(), prefixes.end()};
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
                       detail::did_you_mean(filter, filter_candidates(filter, ids)), ids.size(),
                       some_ids(ids));
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
