#pragma once
// Reductions of a group of quality values to one number (the `aggregate:` statistics).
#include <simverify/framework/quality.hpp>

#include <span>

namespace simverify::framework {

// `axis` holds each value's coordinate along the single `over` axis for `order` (the
// least-squares slope of log(value) against log(axis)), and each value's weight for the
// weighted statistics (normalized to sum 1 per group); the others ignore it. Throws
// std::invalid_argument when the group cannot be reduced (too few points, non-positive
// values for `order`, negative or all-zero weights).
[[nodiscard]] double compute_statistic(const Statistic& statistic, std::span<const double> values,
                                       std::span<const double> axis = {});

}  // namespace simverify::framework
