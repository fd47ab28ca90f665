// A --filter that selects nothing names the nearest id pattern, only when it is genuinely
// close: a typo of the glob's literal part, not half of it rewritten.
#include "selection.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace simverify::framework;

namespace {

std::vector<Requirement> with_ids(const std::vector<std::string>& ids) {
  std::vector<Requirement> out;
  for (const auto& id : ids) {
    Requirement r;
    r.id = id;
    out.push_back(r);
  }
  return out;
}

// The hint a filter gets, "" when none.
std::string hint(const std::string& filter) {
  static const auto requirements =
      with_ids({"NOISE-LEVEL", "NOISE-FLOOR", "QC-SYS-1", "QC-SYS-2", "SOLVER-ODE4-ORDER"});
  const auto message = empty_selection(requirements, std::nullopt, filter);
  if (!message) return "selects some";
  const auto start = message->find(" (did you mean '");
  if (start == std::string::npos) return "";
  return message->substr(start + 16, message->find("'?)") - start - 16);
}

}  // namespace

TEST(Selection, PrefixGlobHintIsATypoOfItsLiteralPart) {
  EXPECT_EQ(hint("NOISE*"), "selects some");
  EXPECT_EQ(hint("QC-SIS-*"), "QC-SYS-*");  // one letter wrong
  EXPECT_EQ(hint("SOLVR-*"), "SOLVER-*");   // one left out
  EXPECT_EQ(hint("NOIZE*"), "NOISE*");
  EXPECT_EQ(hint("NIOSE*"), "NOISE*");  // a swapped pair is one change
  EXPECT_EQ(hint("NOSIE*"), "NOISE*");
  EXPECT_EQ(hint("NOISE-FLOR*"), "NOISE-FLOO*");  // on a tie, as long as the literal
  // Half of a short literal rewritten, or a literal too short to have a typo: no hint.
  EXPECT_EQ(hint("NOPE*"), "");
  EXPECT_EQ(hint("NOPE-*"), "");
  EXPECT_EQ(hint("XO*"), "");
  // Other globs and plain ids: the nearest id, as for every unknown name.
  EXPECT_EQ(hint("SOLVER-ODE4-ORDR"), "SOLVER-ODE4-ORDER");
  EXPECT_EQ(hint("NOPE"), "");
}
