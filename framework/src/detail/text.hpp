#pragma once
// Internal text helpers shared by the loader and the command line.
#include <simverify/core/text.hpp>

#include <string_view>

namespace simverify::framework::detail {

using core::did_you_mean;
using core::edit_distance;
using core::excerpt;
using core::join;
using core::join_excerpt;
// Shell-style glob with '*' and '?'.
[[nodiscard]] bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace simverify::framework::detail
