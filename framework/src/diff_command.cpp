// `simverify diff BASE NEW [--json] [--points]`: what changed between two runs (docs/reports.md).
// Exit 1 when a requirement regressed (passed in BASE, failed or error in NEW), 0 otherwise,
// 2 when either results file is unreadable: a merge-request pipeline fails on regressions only.
#include "commands.hpp"
#include "detail/arguments.hpp"
#include "diff.hpp"

#include <fmt/format.h>

namespace simverify::framework {

int command_diff(std::span<char*> args) {
  using namespace detail;
  const Arguments a = parse_arguments(args, {}, {"json", "points"});
  if (a.positional.size() != 2) {
    throw UsageError("diff needs two results folders: BASE (before) and NEW (after)");
  }
  const ResultsDiff diff = diff_result_folders(a.positional[0], a.positional[1], a.flag("points"));
  fmt::print("{}", a.flag("json") ? diff.to_json() : diff.to_text(a.flag("points")));
  return diff.regressed() ? kNotReleasable : kReleasable;
}

}  // namespace simverify::framework
