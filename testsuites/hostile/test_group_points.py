"""A point judged in a failing aggregation group never looks passing (docs/runner.md
"results.json"): results.json records it "passed": false, "group_passed": false; JUnit points
and `diff --points` show it failed; `merge` recomputes the same. Each test fails on a
simverify that records such points "passed": true."""
import json
import re
import unittest
import xml.etree.ElementTree as ET

from support import HostileCase, results, simverify

# The mean over rtol of ode45's end error on x' = lambda x is ~1e-5 for every lambda: above
# "<= 1e-6" in each of the three groups (a factor 7 or more: no rounding decides it).
GROUPS = """\
requirements:
  - id: E-GROUPS
    title: mean error over rtol, per lambda
    level: integration
    component: simulate
    conditions:
      model: exponential
      method: ode45
      p.lambda: [-1.0, -2.0, -3.0]
      rtol: [1e-3, 1e-4, 1e-5]
    quality:
      measure: error_end
      aggregate: {over: [rtol], statistic: mean}
      threshold: "<= THRESHOLD"
"""


class PointsOfFailingGroups(HostileCase):
    def run_groups(self, threshold, out, *extra):
        pack = self.write("g.yaml", GROUPS.replace("THRESHOLD", threshold))
        return simverify("run", pack, "--out", self.dir / out, "--no-progress", *extra)

    def test_results_json(self):
        self.run_groups("1e-6", "out", "--junit-points")
        q = results(self.dir / "out")["requirements"][0]
        self.assertEqual(q["status"], "failed")
        self.assertEqual([g["passed"] for g in q["groups"]], [False] * 3)
        self.assertEqual([p["passed"] for p in q["points"]], [False] * 9)
        self.assertEqual([p.get("group_passed") for p in q["points"]], [False] * 9)
        # JUnit points: each a failure naming its group.
        suite = ET.parse(self.dir / "out" / "junit.xml").getroot()
        cases = [c for c in suite.iter("testcase") if c.get("name", "").startswith("point ")]
        self.assertEqual(len(cases), 9)
        for case in cases:
            failure = case.find("failure")
            self.assertIsNotNone(failure, ET.tostring(case))
            self.assertIn("in failing group", failure.get("message"))

    def test_passing_groups_are_unchanged(self):
        run = self.run_groups("1e-3", "out")
        self.assertEqual(run.rc, 0, run)
        q = results(self.dir / "out")["requirements"][0]
        self.assertEqual([p["passed"] for p in q["points"]], [True] * 9)
        self.assertNotIn("group_passed", json.dumps(q))

    def test_diff_points(self):
        self.run_groups("1e-3", "base")
        self.run_groups("1e-6", "new")
        diff = simverify("diff", self.dir / "base", self.dir / "new", "--points")
        self.assertEqual(diff.rc, 1, diff)
        # One line per point under the requirement's own line.
        self.assertEqual(len(re.findall(r"^ +\{.*\} passed -> failed;", diff.out, re.M)), 9,
                         diff)

    def test_merge_records_the_same(self):
        self.run_groups("1e-6", "whole")
        for i in (1, 2):
            self.run_groups("1e-6", f"s{i}", "--shard", f"{i}/2")
        merge = simverify("merge", self.dir / "s1", self.dir / "s2", "--out", self.dir / "m")
        self.assertEqual(merge.rc, 1, merge)
        whole = results(self.dir / "whole")["requirements"][0]["points"]
        merged = results(self.dir / "m")["requirements"][0]["points"]
        key = lambda p: (p["index"], p["passed"], p.get("group_passed"))
        self.assertEqual(sorted(map(key, merged)), sorted(map(key, whole)))
        self.expect(simverify("gate", self.dir / "m"), 1, "E-GROUPS failed", stream="out")


if __name__ == "__main__":
    unittest.main()
