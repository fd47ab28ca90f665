// `simverify gate DIR [--coverage FILE]`: the releasability decision with its reasons.
#include "commands.hpp"
#include "detail/arguments.hpp"
#include "gate.hpp"

#include <fmt/format.h>

namespace simverify::framework {

int command_gate(std::span<char*> args) {
  using namespace detail;
  const Arguments a = parse_arguments(args, {"coverage", "config"}, {});
  if (a.positional.size() != 1) throw UsageError("gate needs exactly one results folder");
  const GateDecision decision =
      decide_gate(a.positional.front(), a.option("coverage"), a.option("config"));
  for (const auto& reason : decision.reasons) fmt::print("  - {}\n", reason);
  fmt::print("gate: {}\n", decision.releasable ? "RELEASABLE" : "NOT RELEASABLE");
  return decision.releasable ? kReleasable : kNotReleasable;
}

}  // namespace simverify::framework
