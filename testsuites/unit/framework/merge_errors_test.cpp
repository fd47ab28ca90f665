// `simverify merge` refuses shard folders that would not add up to one unsharded run: each
// case is a MergeError naming what is wrong (exit 2 on the command line), and nothing is
// written to the output folder.
#include "merge.hpp"
#include "test_folder.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace fw = simverify::framework;
namespace fs = std::filesystem;

// A results folder per shard under one temporary root (test_folder.hpp).
class MergeErrors : public ::testing::Test {
 protected:
  const fw::fakes::TestFolder folder{"simverify-merge-errors"};
  const fs::path& root = folder.path;

  fs::path shard(const std::string& name, const std::string& results_json) {
    const fs::path dir = root / name;
    fs::create_directories(dir);
    std::ofstream(dir / "results.json") << results_json;
    return dir;
  }

  // The MergeError text of merging `dirs`; a failure when the merge succeeds.
  std::string error(const std::vector<fs::path>& dirs) {
    try {
      (void)fw::merge_results(dirs, root / "merged");
    } catch (const fw::MergeError& e) {
      EXPECT_FALSE(fs::exists(root / "merged" / "results.json")) << "a refused merge wrote";
      return e.what();
    }
    ADD_FAILURE() << "expected a MergeError";
    return {};
  }
};

namespace {

// One shard's results: requirement A with the given points of a grid of `grid` points.
std::string shard_results(const std::string& shard, const std::string& points, int grid = 2,
                          const std::string& extra = R"("threshold": "<= 1")") {
  return R"({"format": "simverify.results/1", "plan": {"fingerprint": "0123456789abcdef"},
             "complete": true, "summary": {"shard": )" +
         shard + R"(}, "requirements": [{"id": "A", "level": "unit", )" + extra +
         R"(, "grid_size": )" + std::to_string(grid) +
         R"(, "axis_groups": [{"axes": ["x"], "size": )" + std::to_string(grid) +
         R"(}], "points": [)" + points + "]}]}";
}

const std::string kPoint0 = R"({"index": 0, "condition": {"x": 1}, "value": 0.5})";
const std::string kPoint1 = R"({"index": 1, "condition": {"x": 2}, "value": 0.7})";

}  // namespace

TEST_F(MergeErrors, UnreadableOrForeignFiles) {
  EXPECT_EQ(error({}), "give the shard result folders to merge");
  const auto nothing = root / "empty";
  fs::create_directories(nothing);
  EXPECT_NE(error({nothing}).find((nothing / "results.json").string() + ": cannot read results"),
            std::string::npos);
  EXPECT_NE(error({shard("broken", "{")}).find("results.json:1:2: not valid JSON"),
            std::string::npos);
  EXPECT_NE(error({shard("other", R"({"format": "other/2"})")})
                .find("format: 'other/2', expected 'simverify.results/1'"),
            std::string::npos);
  EXPECT_NE(error({shard("list", "[1]")}).find("expected a JSON object"), std::string::npos);
  EXPECT_NE(error({shard("noreq", R"({"format": "simverify.results/1"})")})
                .find("requirements: missing (expected a list)"),
            std::string::npos);
  EXPECT_NE(error({shard("noplan", R"({"format": "simverify.results/1", "requirements": []})")})
                .find("no \"plan\" fingerprint"),
            std::string::npos);
  EXPECT_NE(error({shard("badshard", shard_results(R"("2 of 3")", kPoint0))})
                .find("shard '2 of 3' does not read I/N"),
            std::string::npos);
  EXPECT_NE(error({shard("zero", shard_results(R"("0/2")", kPoint0))}).find("does not read I/N"),
            std::string::npos);
}

TEST_F(MergeErrors, ShardsMustFormOneCompleteSplit) {
  const auto one = shard("one", shard_results(R"("1/2")", kPoint0));
  const auto two_of_three = shard("two3", shard_results(R"("2/3")", kPoint1));
  EXPECT_NE(error({one, two_of_three}).find("all shards must come from the same split"),
            std::string::npos);
  const auto again = shard("again", shard_results(R"("1/2")", kPoint0));
  EXPECT_EQ(error({one, again}),
            "shard 1/2 is given twice (" + one.string() + " and " + again.string() + ")");
  EXPECT_EQ(error({one}), "missing shard(s): 2/2");
  std::string b = shard_results(R"("2/2")", kPoint1);
  b.replace(b.find(R"("id": "A")"), 9, R"("id": "B")");
  const auto other_ids = shard("ids", b);
  EXPECT_NE(error({one, other_ids}).find("planned different requirements"), std::string::npos);
  // Same ids and grid, another plan: the fingerprints tell them apart.
  std::string c = shard_results(R"("2/2")", kPoint1);
  c.replace(c.find("0123456789abcdef"), 16, "fedcba9876543210");
  const auto other_plan = shard("plan", c);
  const std::string mixed = error({one, other_plan});
  EXPECT_NE(mixed.find(one.string() + " and " + other_plan.string()), std::string::npos) << mixed;
  EXPECT_NE(mixed.find("fingerprints"), std::string::npos) << mixed;
}

// The merged results name one commit as the one verified: shards of two commits are two runs.
TEST_F(MergeErrors, ShardsMustVerifyOneCommit) {
  const auto at = [&](const std::string& name, const std::string& index, const std::string& point,
                      const std::string& commit) {
    return shard(
        name, shard_results(fmt::format(R"("{}"{})", index,
                                        commit.empty() ? std::string()
                                                       : fmt::format(R"(, "commit": {})", commit)),
                            point));
  };
  const auto one = at("one", "1/2", kPoint0, R"("111111111111")");
  const auto two = at("two", "2/2", kPoint1, R"("222222222222")");
  EXPECT_EQ(error({one, two}), (one / "results.json").string() +
                                   " records commit 111111111111 but " +
                                   (two / "results.json").string() +
                                   " records commit 222222222222: shards of one run verify one "
                                   "commit; run every shard again at one commit");
  // Unknown (outside a checkout) agrees with unknown only.
  const auto unknown = at("unknown", "2/2", kPoint1, "null");
  EXPECT_NE(error({one, unknown}).find("records an unknown commit (no checkout, no CI_COMMIT_SHA)"),
            std::string::npos);
  EXPECT_TRUE(fw::merge_results({at("u1", "1/2", kPoint0, "null"), at("u2", "2/2", kPoint1, "")},
                                root / "merged")
                  .releasable);
  // git lengthens an ambiguous abbreviation: the same commit, another length.
  EXPECT_TRUE(
      fw::merge_results({one, at("longer", "2/2", kPoint1, R"("1111111111112")")}, root / "merged")
          .releasable);
}

TEST_F(MergeErrors, PointsMustAddUpToTheGrid) {
  const auto one = shard("one", shard_results(R"("1/2")", kPoint0));
  const auto overlap = shard("overlap", shard_results(R"("2/2")", kPoint0));
  EXPECT_EQ(error({one, overlap}), "point 0 of A is in both " + one.string() + " and " +
                                       overlap.string() + " (overlapping shards)");
  const auto short_of_grid = shard("short", shard_results(R"("2/2")", kPoint1, 3));
  const auto one_of_three = shard("one3", shard_results(R"("1/2")", kPoint0, 3));
  EXPECT_EQ(error({one_of_three, short_of_grid}),
            "A: the shards hold 2 of its 3 grid points (a shard is missing or was run with "
            "other files)");
}

TEST_F(MergeErrors, ThresholdAndAggregateMustBeReadable) {
  const auto first = [&](const std::string& name, const std::string& extra) {
    return std::vector<fs::path>{shard(name + "1", shard_results(R"("1/2")", kPoint0, 2, extra)),
                                 shard(name + "2", shard_results(R"("2/2")", kPoint1, 2, extra))};
  };
  const auto ends_with = [](const std::string& text, const std::string& end) {
    return text.ends_with(end) ? testing::AssertionSuccess() : testing::AssertionFailure() << text;
  };
  EXPECT_TRUE(ends_with(error(first("t", R"("threshold": "about 1")")), "A: unreadable threshold"));
  EXPECT_TRUE(ends_with(error(first("s", R"("threshold": "<= 1", "aggregate": {"over": ["x"],
                                "statistic": "mode"})")),
                        "A: unreadable aggregate"));
  EXPECT_TRUE(ends_with(error(first("o", R"("threshold": "<= 1", "aggregate": {"over": [],
                                "statistic": "mean"})")),
                        "A: unreadable aggregate"));
  // The same two shards with a readable threshold merge: the refusals above are about the
  // field named, not about the shards.
  const auto ok = first("ok", R"("threshold": "<= 1")");
  const auto summary = fw::merge_results(ok, root / "merged");
  EXPECT_EQ(summary.passed, 1);
  EXPECT_TRUE(summary.releasable);
  EXPECT_TRUE(fs::exists(root / "merged" / "results.json"));
}

// Each shard's entry is believed only as far as the others and its own measures bear it out:
// one edited shard must not decide the merge, whichever shard the merge takes a definition from.
TEST_F(MergeErrors, ShardsMustAgreeOnTheRun) {
  const auto two = shard("two", shard_results(R"("2/2")", kPoint1, 2, R"("threshold": "<= 0.6")"));
  const auto loosened = shard("loose", shard_results(R"("1/2")", kPoint0));
  EXPECT_EQ(error({two, loosened}),
            (two / "results.json").string() + ": A's threshold is \"<= 0.6\" but " +
                (loosened / "results.json").string() +
                " records \"<= 1\": shards of one run record the same (was one edited after the "
                "run?)");
  std::string policy = shard_results(R"("1/2", "fail_fast": "none")", kPoint0);
  EXPECT_NE(error({shard("policy", policy), shard("p2", shard_results(R"("2/2")", kPoint1))})
                .find("summary.fail_fast is absent but"),
            std::string::npos);
  std::string version = shard_results(R"("1/2")", kPoint0);
  version.replace(version.find(R"("0123456789abcdef")"), 18,
                  R"("0123456789abcdef", "simverify": "9.9.9")");
  EXPECT_NE(error({shard("version", version), shard("v2", shard_results(R"("2/2")", kPoint1))})
                .find("plan.simverify is absent but"),
            std::string::npos);
  // Points at one grid position record one condition, in whichever shard they are.
  const auto grid = [&](const std::string& name, const std::string& index, const std::string& a,
                        const std::string& b) {
    return shard(name,
                 R"({"format": "simverify.results/1", "plan": {"fingerprint": "0123456789abcdef"},
        "complete": true, "summary": {"shard": ")" +
                     index + R"("}, "requirements": [{"id": "A",
        "level": "unit", "threshold": "<= 1", "grid_size": 4, "axis_groups": [{"axes": ["x"],
        "size": 2}, {"axes": ["k"], "size": 2}], "points": [)" +
                     a + ", " + b + "]}]}");
  };
  const auto at = [](int index, int x, int k) {
    return fmt::format(R"({{"index": {}, "condition": {{"x": {}, "k": {}}}, "value": 0.5}})", index,
                       x, k);
  };
  const auto second = grid("grid2", "2/2", at(2, 2, 1), at(3, 2, 2));
  const std::string moved = error({grid("moved", "1/2", at(0, 1, 1), at(1, 2, 2)), second});
  EXPECT_NE(moved.find("A: grid point 1 records x=2 but grid point 0 in"), std::string::npos)
      << moved;
  EXPECT_TRUE(
      fw::merge_results({grid("honest", "1/2", at(0, 1, 1), at(1, 1, 2)), second}, root / "merged")
          .releasable);
}

TEST_F(MergeErrors, ValuesMustBeWhatTheirMeasuresGive) {
  const std::string measured = R"("threshold": "<= 0.6", "measure": "y")";
  const std::string point1 = R"({"index": 1, "condition": {"x": 2}, "measures": {"y": 0.5},
                                 "value": 0.5})";
  const auto two = shard("two", shard_results(R"("2/2")", point1, 2, measured));
  // The failing point's value edited (with its verdict) but not its measure.
  const auto edited = shard("edited", shard_results(R"("1/2")", R"({"index": 0,
      "condition": {"x": 1}, "measures": {"y": 0.7}, "value": 0.1, "passed": true})",
                                                    2, measured));
  EXPECT_EQ(error({edited, two}), (edited / "results.json").string() +
                                      ": A: grid point 0's value 0.1 is not what its measures "
                                      "give (0.7) (results.json was edited after the run?)");
  const auto honest = shard("honest", shard_results(R"("1/2")", R"({"index": 0,
      "condition": {"x": 1}, "measures": {"y": 0.7}, "value": 0.7})",
                                                    2, measured));
  EXPECT_FALSE(fw::merge_results({honest, two}, root / "merged").releasable);
}

// Only the files results.json names are copied, each from where simverify writes it.
TEST_F(MergeErrors, OnlyNamedFilesAreCopied) {
  const std::string figures =
      R"("threshold": "<= 1", "figures": [{"title": "f", "file": "figures/A/0.gv"}])";
  const std::string stored = R"({"index": 0, "condition": {"x": 1},
      "measures": {"s": {"file": "series/A/0-s.csv", "samples": 1, "columns": ["x"]}},
      "value": 0.5})";
  const auto one = shard("one", shard_results(R"("1/2")", stored, 2, figures));
  const auto two = shard("two", shard_results(R"("2/2")", kPoint1, 2, figures));
  EXPECT_EQ(error({one, two}), (one / "figures" / "A" / "0.gv").string() + ": missing, but " +
                                   (one / "results.json").string() + " names it");
  fs::create_directories(one / "figures" / "A");
  std::ofstream(one / "figures" / "A" / "0.gv") << "digraph {}\n";
  EXPECT_EQ(error({one, two}), (one / "series" / "A" / "0-s.csv").string() + ": missing, but " +
                                   (one / "results.json").string() + " names it");
  fs::create_directories(one / "series" / "A");
  std::ofstream(one / "series" / "A" / "0-s.csv") << "t,x\n0,1\n";
  // Files results.json does not name stay behind: a page, a series of no requirement.
  std::ofstream(one / "series" / "A" / "evil.html") << "<script></script>";
  fs::create_directories(two / "series" / "Z");
  std::ofstream(two / "series" / "Z" / "x.csv") << "t\n";
  std::ofstream(two / "figures.gv") << "digraph {}\n";
  (void)fw::merge_results({one, two}, root / "copied");
  std::set<std::string> copied;
  for (const auto& entry : fs::recursive_directory_iterator(root / "copied")) {
    if (entry.is_regular_file()) copied.insert(fs::relative(entry.path(), root / "copied"));
  }
  EXPECT_EQ(copied, (std::set<std::string>{".simverify-results", "results.json", "series/A/0-s.csv",
                                           "figures/A/0.gv"}));
  // A named file that is a link is refused, not followed.
  fs::remove(one / "series" / "A" / "0-s.csv");
  fs::create_symlink(one / "series" / "A" / "evil.html", one / "series" / "A" / "0-s.csv");
  EXPECT_NE(error({one, two}).find("0-s.csv: is a symbolic link"), std::string::npos);
  // A name edited to another file (out of the shard) is not followed either.
  const auto other = shard("other", shard_results(R"("1/2")", kPoint0, 2,
                                                  R"("threshold": "<= 1", "figures": [{"title":
                                                  "f", "file": "../../etc/passwd"}])"));
  EXPECT_NE(error({other, two})
                .find("names the file \"../../etc/passwd\", simverify writes "
                      "figures/A/0.gv"),
            std::string::npos);
}

TEST_F(MergeErrors, OutMustNotHoldAShard) {
  const auto one = shard("one", shard_results(R"("1/2")", kPoint0));
  const auto two = shard("two", shard_results(R"("2/2")", kPoint1));
  for (const fs::path& out : {root, root / ".." / root.filename(), fs::path(root.string() + "/")}) {
    try {
      (void)fw::merge_results({one, two}, out);
      ADD_FAILURE() << "merged into " << out;
    } catch (const fw::MergeError& e) {
      EXPECT_NE(std::string(e.what()).find("holds the shard " + one.string()), std::string::npos)
          << e.what();
    }
  }
  EXPECT_TRUE(fs::exists(one / "results.json"));
  EXPECT_TRUE(fs::exists(two / "results.json"));
}
