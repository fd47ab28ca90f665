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
    // As `run` says it: a narrowed selection that passed is PASSED, exit 0, never RELEASABLE.
    const bool selection_passed =
        s.complete && s.passed > 0 && s.failed == 0 && s.errors == 0 && s.skipped == 0;
    const bool narrowed_pass = selection_passed && !s.narrowed_by.empty();
    if (narrowed_pass) {
      fmt::print(std::cout,
                 "verdict: PASSED for the requirements {} selects (a release needs all of them: "
                 "`simverify gate` on these results says NOT RELEASABLE)\n",
                 detail::terminal_text(s.narrowed_by));
    } else {
      fmt::print(std::cout, "verdict: {}\n", s.releasable ? "RELEASABLE" : "NOT RELEASABLE");
    }
    // Every requirement passed yet a rule of the gate fails (a level the project file requires
    // did not run): say which.
    if (!s.releasable && !narrowed_pass && selection_passed) {
      for (const auto& why : s.not_releasable) {
        fmt::print(std::cout, "  FAIL {}\n", detail::terminal_text(why));
      }
    }
    fmt::print(std::cout, "results: {}\n",
               detail::terminal_text((std::filesystem::path(*out) / "results.json").string()));
    return s.releasable || narrowed_pass ? detail::kReleasable : detail::kNotReleasable;
  } catch (const MergeError& e) {
    fmt::print(std::cerr, "simverify merge: error: {}\nnothing was written\n",
               detail::terminal_text(e.what()));
    return detail::kInvalid;
  }
}

}  // namespace simverify::framework
