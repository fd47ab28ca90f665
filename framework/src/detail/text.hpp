#pragma once
// Internal text helpers shared by the loader and the command line.
#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework::detail {

[[nodiscard]] std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);
// " (did you mean 'x'?)" for the closest candidate within a small edit distance, else "".
[[nodiscard]] std::string did_you_mean(std::string_view word,
                                       const std::vector<std::string>& candidates);
// Shell-style glob with '*' and '?'.
[[nodiscard]] bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace simverify::framework::detail
