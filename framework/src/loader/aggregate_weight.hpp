#pragma once
// Internal: the `weight:` of an aggregate with a weighted statistic (weighted_mean,
// weighted_fraction(<= x), weighted_quantile(q)): the condition axis holding each case's
// weight, e.g. `conditions: {zip: {case: [nn, wn], p_case: [0.95, 0.05]}}` with
// `aggregate: {over: [case], statistic: weighted_mean, weight: p_case}`.
#include <simverify/framework/diagnostics.hpp>
#include <simverify/framework/requirement.hpp>

#include <optional>
#include <set>
#include <string>

namespace simverify::framework::loader {

// What `weight:` says, as the loader read it.
struct WrittenWeight {
  std::optional<std::string> name;  // nothing: no `weight:` (or not a plain name)
  SourceLocation at;                // where `weight:` (or else the aggregate) was written
};

// Sets aggregate.weight when the statistic is weighted and the weight is sound, else returns
// the problem (nothing also when the weight axis had errors reported already, in
// failed_axes: then aggregate.weight stays empty). Problems: a weighted statistic without
// `weight:` or `weight:` with another statistic; a weight axis that is not a condition, or
// does not vary with the `over` axes (neither one of them nor zipped with one, so each group
// would hold one weight); a weight that is not a finite number >= 0 (at the value), or an
// axis whose weights are all zero.
[[nodiscard]] std::optional<Diagnostic> check_aggregate_weight(
    const WrittenWeight& written, const Requirement& r, Aggregate& aggregate,
    const std::set<std::string>& failed_axes);

}  // namespace simverify::framework::loader
