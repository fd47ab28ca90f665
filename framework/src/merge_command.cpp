// `simverify merge DIR... --out DIR`: one verdict from shard results (format page).
#include "commands.hpp"
#include "detail/arguments.hpp"
#include "detail/encoding.hpp"
#include "detail/interrupt_guard.hpp"
#include "merge.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <iostream>

namespace simverify::framework {

int command_merge(std::span<char*> args) {
  const auto a = detail::parse_arguments(args, {"out"}, {});
  const auto out = a.option("out");
  if (!out) throw detail::UsageError("merge needs --out DIR");
  if (a.positional.empty()) throw detail::UsageError("merge needs the shard result folders");
  std::vector<std::filesystem::path> dirs(a.positional.begin(), a.positional.end());
  try {
    const detail::InterruptGuard interrupt_guard;
    const MergeSummary s = merge_results(dirs, *out, &interrupt_guard.flag());
    fmt::print(std::cout, "merged {} shard(s): {} passed, {} failed, {} error(s), {} skipped{}\n",
               dirs.size(), s.passed, s.failed, s.errors, s.skipped,
               s.complete ? "" : " (incomplete)");
    fmt::print(std::cout, "verdict: {}\nresults: {}\n",
               s.releasable ? "RELEASABLE" : "NOT RELEASABLE",
               detail::terminal_text((std::filesystem::path(*out) / "results.json").string()));
    return s.releasable ? detail::kReleasable : detail::kNotReleasable;
  } catch (const MergeError& e) {
    fmt::print(std::cerr, "simverify merge: error: {}\nnothing was written\n",
               detail::terminal_text(e.what()));
    return detail::kInvalid;
  }
}

}  // namespace simverify::framework
