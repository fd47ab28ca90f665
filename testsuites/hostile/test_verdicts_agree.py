"""`run`, `merge` and `gate` give one verdict (docs/runner.md "Verdicts"): the rules of
Def 5.17 live in one place (framework/src/release_rules.cpp) and each command applies them.
Each test fails on a simverify whose `run` or `merge` judged only the requirement counts."""
import re
import unittest

from support import HostileCase, results, simverify

# Exponential decay with ode45 at its default tolerances: end error ~1e-6, passes "<= 1e-3".
INTEGRATION_ONLY = """\
requirements:
  - id: I-A
    title: an integration requirement
    level: integration
    component: simulate
    conditions: {model: exponential, method: ode45}
    quality: {measure: error_end, threshold: "<= 1e-3"}
"""

# A-PASS passes (as above); B-FAIL cannot reach 1e-12 at rtol 1e-2.
PASS_AND_FAIL = """\
requirements:
  - id: A-PASS
    title: passes
    level: integration
    component: simulate
    conditions: {model: exponential, method: ode45, p.lambda: [-1.0, -2.0]}
    quality: {measure: error_end, threshold: "<= 1e-3"}
  - id: B-FAIL
    title: fails
    level: integration
    component: simulate
    conditions: {model: exponential, method: ode45, rtol: 1e-2}
    quality: {measure: error_end, threshold: "<= 1e-12"}
"""

# U-A fails at unit level, so fail-fast=level skips I-A.
LEVEL_STOPS = """\
requirements:
  - id: U-A
    title: fails
    level: unit
    component: simulate
    conditions: {model: exponential, method: ode45, rtol: 1e-2}
    quality: {measure: error_end, threshold: "<= 1e-12"}
  - id: I-A
    title: skipped
    level: integration
    component: simulate
    conditions: {model: exponential, method: ode45}
    quality: {measure: error_end, threshold: "<= 1e-3"}
"""


class RunAppliesTheProjectFile(HostileCase):
    def test_levels_the_project_file_requires(self):
        self.write("req/simverify.yaml", "gate:\n  levels: [unit, integration, system]\n")
        self.write("req/a.yaml", INTEGRATION_ONLY)
        run = simverify("run", self.dir / "req", "--out", self.dir / "out", "--no-progress")
        self.expect(run, 1, "verdict: NOT RELEASABLE",
                    "FAIL level unit is required by the gate but none of its requirements ran",
                    stream="out")
        self.assertNotIn("verdict: RELEASABLE", run.out)
        self.assertFalse(results(self.dir / "out")["releasable"])
        self.expect(simverify("gate", self.dir / "out"), 1, "gate: NOT RELEASABLE", stream="out")

    def test_levels_that_ran(self):
        self.write("req/simverify.yaml", "gate:\n  levels: [integration]\n")
        self.write("req/a.yaml", INTEGRATION_ONLY)
        run = simverify("run", self.dir / "req", "--out", self.dir / "out", "--no-progress")
        self.expect(run, 0, "verdict: RELEASABLE", stream="out")
        self.assertTrue(results(self.dir / "out")["releasable"])
        self.expect(simverify("gate", self.dir / "out"), 0, "gate: RELEASABLE", stream="out")

    def test_a_broken_project_file_is_refused_before_the_run(self):
        self.write("req/simverify.yaml", "gate:\n  levels: [unit, nope]\n")
        self.write("req/a.yaml", INTEGRATION_ONLY)
        run = simverify("run", self.dir / "req", "--out", self.dir / "out", "--no-progress")
        self.expect(run, 2, "simverify.yaml:2:", "nothing was run")
        self.assertFalse((self.dir / "out").exists())


class NarrowedIsNeverReleasable(HostileCase):
    def test_a_narrowed_run_records_not_releasable(self):
        pack = self.write("p.yaml", PASS_AND_FAIL)
        run = simverify("run", pack, "--out", self.dir / "n", "--filter", "A-*", "--no-progress")
        self.expect(run, 0, "verdict: PASSED for the requirements --filter 'A-*' selects",
                    stream="out")
        self.assertFalse(results(self.dir / "n")["releasable"])

    def test_merged_narrowed_shards(self):
        pack = self.write("p.yaml", PASS_AND_FAIL)
        for i in (1, 2):
            run = simverify("run", pack, "--out", self.dir / f"s{i}", "--filter", "A-*",
                            "--shard", f"{i}/2", "--no-progress")
            self.assertEqual(run.rc, 0, run)
        merge = simverify("merge", self.dir / "s1", self.dir / "s2", "--out", self.dir / "m")
        self.expect(merge, 0, "verdict: PASSED for the requirements --filter 'A-*' selects",
                    stream="out")
        self.assertNotIn("verdict: RELEASABLE", merge.out)
        self.assertFalse(results(self.dir / "m")["releasable"])
        self.expect(simverify("gate", self.dir / "m"), 1, "the run was narrowed", stream="out")

    def test_merged_shards_of_a_project_missing_levels(self):
        self.write("req/simverify.yaml", "gate:\n  levels: [unit, integration]\n")
        self.write("req/a.yaml", INTEGRATION_ONLY)
        for i in (1, 2):
            simverify("run", self.dir / "req", "--out", self.dir / f"s{i}", "--shard", f"{i}/2",
                      "--no-progress")
        merge = simverify("merge", self.dir / "s1", self.dir / "s2", "--out", self.dir / "m")
        self.expect(merge, 1, "verdict: NOT RELEASABLE", "FAIL level unit is required",
                    stream="out")
        self.assertFalse(results(self.dir / "m")["releasable"])


class GateSaysWhatDidNotRun(HostileCase):
    def test_stopped_by_fail_fast(self):
        pack = self.write("f.yaml", LEVEL_STOPS)
        simverify("run", pack, "--out", self.dir / "o", "--no-progress")
        gate = self.expect(simverify("gate", self.dir / "o"), 1, stream="out")
        self.assertIn("FAIL I-A did not run: level unit did not pass (fail-fast=level)", gate.out)
        self.assertNotIn("not run: not run", gate.out)
        self.assertNotRegex(gate.out, re.compile(r"ok +the run is complete\s*$", re.M))
        self.assertIn("FAIL 1 of 2 requirement(s) did not run, stopped by fail-fast=level or a "
                      "failed depends_on: I-A", gate.out)


if __name__ == "__main__":
    unittest.main()
