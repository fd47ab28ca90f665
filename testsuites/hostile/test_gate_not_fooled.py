"""The gate must not be fooled (issue: a gate nobody can fool). Merging shards recomputes
exactly what one run computes; shards of different runs are refused; a shard alone is never
releasable; results edited into agreement with themselves are held to the requirement files
they were run from. Each test fails on a simverify that rebuilds aggregation groups from
condition values, merges without a plan fingerprint, lets a shard decide releasability or
reads results.json alone."""
import json
import re
import shutil
import unittest

from support import HostileCase, results, simverify

# Two aggregation groups whose conditions are equal (p.lambda -1.0 twice) and two more
# (-1.5 twice): the sample std of Euler's end error over h fails `<= 0.018` for lambda -1.5
# (|e(0.1) - e(0.2)| / sqrt(2) = 0.0204 for the exact errors 0.0263 and 0.0551). Groups built
# from values would pool the duplicates, and the std of a doubled sample is smaller by
# sqrt(2/3) (0.0166, passing): the merge would turn a failing run releasable.
EQUAL_CONDITIONS = """\
requirements:
  - id: HOSTILE-EQUAL-CONDITIONS
    title: groups are grid positions, not values
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode1
      h: [0.1, 0.2]
      tf: 1.0
      p.lambda: [-1.0, -1.0, -1.5, -1.5]
    quality:
      measure: error_end
      aggregate: {over: [h], statistic: std}
      threshold: "<= 0.018"
"""

# The aggregated axis zipped with another that varies along it: the zip group is aggregated
# as one (3 points per group), never split into one-point groups.
ZIPPED_ORDER = """\
requirements:
  - id: HOSTILE-ZIPPED-ORDER
    title: a zipped axis aggregates as it ran
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode1
      zip:
        h: [0.01, 0.005, 0.0025]
        tf: [1.0, 1.0001, 1.0002]
      p.lambda: [-1.0, -2.0]
    quality:
      measure: error_end
      aggregate: {over: [h], statistic: order}
      threshold: ">= 0.9"
"""

# A NaN condition: the loader refuses NaN for the built-in components' inputs (p.<name>, x0),
# so a program's condition carries it; the program fails the point whose x is not 1.
NAN_CONDITION = """\
requirements:
  - id: HOSTILE-NAN-CONDITION
    title: a NaN condition reads back as NaN
    level: unit
    component: command
    command: [/usr/bin/python3, -c, "import json, sys; c = json.load(sys.stdin)['conditions']; print(json.dumps({'measures': {'v': 1 if c['x'] == 1 else 0}}))"]
    measures: [v]
    conditions:
      x: [1.0, .nan]
    quality:
      measure: v
      threshold: ">= 0.5"
"""

KEYS = ("id", "status", "worst", "worst_point", "reason", "point_count", "groups")


def two_thresholds(threshold):
    return f"""\
requirements:
  - id: HOSTILE-MIXED
    title: same id, same grid, other threshold
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode1
      h: {{logspace: [-3, -1, 6]}}
      tf: 1.0
    quality:
      measure: error_end
      threshold: "{threshold}"
"""


class MergeRecomputesTheRun(HostileCase):
    def check_merges_as_run(self, text, expected_rc, shard_counts=(1, 2, 3)):
        pack = self.write("pack.yaml", text)
        whole = self.dir / "whole"
        run = simverify("run", pack, "--out", whole, "--no-progress")
        self.assertEqual(run.rc, expected_rc, run)
        reference = results(whole)
        for n in shard_counts:
            folders = []
            for i in range(1, n + 1):
                folder = self.dir / f"s{n}-{i}"
                shard = simverify("run", pack, "--out", folder, "--no-progress",
                                  *(["--shard", f"{i}/{n}"] if n > 1 else []))
                self.assertIn(shard.rc, (0, 1), shard)
                folders.append(folder)
            merged = self.dir / f"merged{n}"
            m = simverify("merge", *folders, "--out", merged)
            self.assertEqual(m.rc, expected_rc, f"merge of {n} shard(s): {m}")
            got = results(merged)
            self.assertEqual(got["releasable"], reference["releasable"])
            for a, b in zip(reference["requirements"], got["requirements"], strict=True):
                for key in KEYS:
                    self.assertEqual(a.get(key), b.get(key), f"{key} after merging {n} shard(s)")
                conditions = [p["condition"] for p in a["points"]]
                self.assertEqual(conditions, [p["condition"] for p in b["points"]])
        return reference

    def test_equal_conditions_are_different_groups(self):
        reference = self.check_merges_as_run(EQUAL_CONDITIONS, 1)
        self.assertEqual(len(reference["requirements"][0]["groups"]), 4)

    def test_zipped_axis_merges_as_it_ran(self):
        reference = self.check_merges_as_run(ZIPPED_ORDER, 0)
        groups = reference["requirements"][0]["groups"]
        self.assertEqual([len(g["points"]) for g in groups], [3, 3])

    def test_nan_condition_round_trips(self):
        reference = self.check_merges_as_run(NAN_CONDITION, 1)
        requirement = reference["requirements"][0]
        self.assertEqual(requirement["points"][1]["condition"]["x"], "nan")
        self.assertIn("x=nan", requirement["reason"])


class MixedRunsAreRefused(HostileCase):
    def test_shards_of_different_requirements(self):
        a = self.write("a/pack.yaml", two_thresholds("<= 0.5"))
        b = self.write("b/pack.yaml", two_thresholds("<= 1e-9"))
        simverify("run", a, "--out", self.dir / "s1", "--shard", "1/2", "--no-progress")
        simverify("run", b, "--out", self.dir / "s2", "--shard", "2/2", "--no-progress")
        for order in ((1, 2), (2, 1)):
            folders = [self.dir / f"s{i}" for i in order]
            m = simverify("merge", *folders, "--out", self.dir / "merged")
            self.expect(m, 2, str(self.dir / "s1"), str(self.dir / "s2"), "fingerprint")
            self.assertFalse((self.dir / "merged" / "results.json").exists())

    def test_every_results_file_records_the_plan(self):
        pack = self.write("pack.yaml", two_thresholds("<= 0.5"))
        simverify("run", pack, "--out", self.dir / "a", "--no-progress")
        simverify("run", pack, "--out", self.dir / "b", "--no-progress", "--shard", "1/2")
        plan_a, plan_b = results(self.dir / "a")["plan"], results(self.dir / "b")["plan"]
        self.assertRegex(plan_a["fingerprint"], r"^[0-9a-f]{16}$")
        self.assertEqual(plan_a, plan_b)

    def test_out_is_one_of_the_shards(self):
        pack = self.write("pack.yaml", two_thresholds("<= 0.5"))
        before = {}
        for i in (1, 2):
            simverify("run", pack, "--out", self.dir / f"s{i}", "--shard", f"{i}/2",
                      "--no-progress")
            before[i] = (self.dir / f"s{i}" / "results.json").read_bytes()
        m = simverify("merge", self.dir / "s1", self.dir / "s2", "--out", self.dir / "s2")
        self.expect(m, 2, "one of the shards")
        for i in (1, 2):
            self.assertEqual((self.dir / f"s{i}" / "results.json").read_bytes(), before[i])


# A passes; B's point h=0.1 fails (error 0.0192 against <= 0.015).
TWO_REQUIREMENTS = """\
requirements:
  - id: A
    level: unit
    component: simulate
    conditions: {model: exponential, method: ode4, h: [0.1, 0.05], tf: 1}
    quality: {measure: error_end, threshold: "<= 1e-5"}
  - id: B
    level: unit
    component: simulate
    conditions: {model: exponential, method: ode1, h: [0.1, 0.05, 0.01, 0.005], tf: 1}
    quality: {measure: error_end, threshold: "<= 0.015"}
"""


class MergeBelievesNoSingleShard(HostileCase):
    """One shard edited after the run: merge refuses (exit 2) in either order, naming the
    shard and what disagrees, where it once took the edited shard's word and said
    RELEASABLE."""

    def setUp(self):
        super().setUp()
        pack = self.write("pack.yaml", TWO_REQUIREMENTS)
        for i in (1, 2):
            simverify("run", pack, "--out", self.dir / f"s{i}", "--shard", f"{i}/2",
                      "--no-progress")
        self.assertEqual(simverify("merge", self.dir / "s1", self.dir / "s2", "--out",
                                   self.dir / "honest").rc, 1)

    def edited(self, i, edit):
        folder = self.dir / f"edited{i}"
        shutil.copytree(self.dir / f"s{i}", folder)
        doc = json.loads((folder / "results.json").read_text())
        edit(doc)
        (folder / "results.json").write_text(json.dumps(doc))
        return folder

    def refused(self, i, edited, *needles):
        other = self.dir / f"s{3 - i}"
        for shards in ((edited, other), (other, edited)):
            m = simverify("merge", *shards, "--out", self.dir / "m")
            self.expect(m, 2, "nothing was written", *needles)
            self.assertFalse((self.dir / "m").exists())

    def test_a_definition_edited_in_one_shard(self):
        def loosen(doc):
            doc["requirements"][1]["threshold"] = "<= 1"
        def regrid(doc):
            doc["requirements"][1]["grid_size"] = 3
        def version(doc):
            doc["plan"]["simverify"] = "9.9.9"
        def policy(doc):
            doc["summary"]["fail_fast"] = "none"
        for name, edit, needle in ((1, loosen, "B's threshold is"), (2, regrid, "B's grid_size"),
                                   (3, version, "plan.simverify"),
                                   (4, policy, "summary.fail_fast")):
            edited = self.edited(1, edit)
            self.refused(1, edited, needle, str(edited / "results.json"), "edited after the run")
            shutil.rmtree(edited)

    def test_a_condition_edited_in_one_shard(self):
        def move(doc):
            doc["requirements"][1]["points"][0]["condition"]["method"] = "ode4"
        self.refused(1, self.edited(1, move), "records method=\"ode4\"", "method=\"ode1\"")

    def test_a_value_edited_without_its_measures(self):
        def pass_it(doc):
            b = doc["requirements"][1]
            point = next(p for p in b["points"] if p["index"] == 0)
            point["value"] = point["quality"] = 0.001
            point["passed"] = True
            b["status"], b["reason"] = "passed", ""
            doc["summary"]["passed"] += 1
            doc["summary"]["failed"] -= 1
        edited = self.edited(2, pass_it)
        self.refused(2, edited, str(edited / "results.json") + ": B: grid point 0's value 0.001 "
                     "is not what its measures give")


class ShardAloneIsNotReleasable(HostileCase):
    def test_passing_shard(self):
        pack = self.write("pack.yaml", two_thresholds("<= 0.5"))
        run = simverify("run", pack, "--out", self.dir / "s", "--shard", "1/3", "--no-progress")
        self.assertEqual(run.rc, 0, run)
        self.assertRegex(run.out,
                         r"shard 1/3: \d+ passed, 0 failed \(merge decides releasability\)")
        self.assertNotIn("RELEASABLE", run.out)
        self.assertFalse(results(self.dir / "s")["releasable"])
        self.expect(simverify("gate", self.dir / "s"), 1, stream="out")

    def test_failing_shard_exits_1(self):
        pack = self.write("pack.yaml", two_thresholds("<= 1e-9"))
        outcomes = []
        for i in (1, 2):
            run = simverify("run", pack, "--out", self.dir / f"s{i}", "--shard", f"{i}/2",
                            "--no-progress")
            outcomes.append(run.rc)
            match = re.search(r"shard \d/2: (\d+) passed, (\d+) failed", run.out)
            self.assertIsNotNone(match, run)
            self.assertEqual(run.rc, 1 if int(match.group(2)) > 0 else 0, run)
        self.assertIn(1, outcomes)

    def test_empty_shard(self):
        pack = self.write("pack.yaml", two_thresholds("<= 0.5"))
        run = simverify("run", pack, "--out", self.dir / "s", "--shard", "1/1000000000",
                        "--no-progress")
        self.assertEqual(run.rc, 0, run)
        self.assertIn("is empty", run.out)
        self.assertNotIn("PASS", run.out)
        doc = results(self.dir / "s")
        self.assertFalse(doc["releasable"])
        self.assertNotIn("passed", [r["status"] for r in doc["requirements"]])


if __name__ == "__main__":
    unittest.main()


# ode4's end error on x' = -x over [0, 1] is 3.3e-7 at h = 0.1 (passes "<= 1e-5"), Euler's
# 1.9e-2 at h = 0.1 (fails "<= 1e-3"): one honest pass, one honest failure.
PASS_AND_FAIL = """\
requirements:
  - id: HOSTILE-HONEST-PASS
    title: ode4 is accurate
    level: unit
    component: simulate
    conditions: {model: exponential, method: ode4, h: [0.1, 0.05], tf: 1.0}
    quality: {measure: error_end, threshold: "<= 1e-5"}
  - id: HOSTILE-HONEST-FAIL
    title: Euler is not that accurate
    level: unit
    component: simulate
    conditions: {model: exponential, method: ode1, h: [0.1, 0.05], tf: 1.0}
    quality: {measure: error_end, threshold: "<= 1e-3"}
"""


class HeldToItsRequirementFiles(HostileCase):
    """results.json edited into agreement with itself: only the requirement files it was run
    from tell. Each test fails on a gate that reads results.json alone."""

    def run_pack(self):
        pack = self.write("pack.yaml", PASS_AND_FAIL)
        run = simverify("run", pack, "--out", self.dir / "out", "--no-progress",
                        "--fail-fast", "none")
        self.assertEqual(run.rc, 1, run)
        return pack

    def tamper(self, change):
        path = self.dir / "out" / "results.json"
        doc = json.loads(path.read_text())
        change(doc)
        path.write_text(json.dumps(doc, indent=1))

    def test_a_failing_requirement_cut_out_with_its_summary_fixed(self):
        self.run_pack()

        def cut(doc):
            doc["requirements"] = [r for r in doc["requirements"]
                                   if r["id"] != "HOSTILE-HONEST-FAIL"]
            doc["summary"]["failed"] = 0
            doc["releasable"] = True
        self.tamper(cut)
        gate = self.expect(simverify("gate", self.dir / "out"), 1,
                           "HOSTILE-HONEST-FAIL (", "pack.yaml:8:9) is planned but missing "
                           "from the results", "gate: NOT RELEASABLE", stream="out")
        self.assertIn("ok   1 of 1 planned requirement(s) passed", gate.out)

    def test_a_loosened_threshold(self):
        self.run_pack()

        def loosen(doc):
            for r in doc["requirements"]:
                if r["id"] == "HOSTILE-HONEST-FAIL":
                    r.update(threshold="<= 1", status="passed", reason="")
                    for p in r["points"]:
                        p["passed"] = True
            doc["summary"].update(passed=2, failed=0)
            doc["releasable"] = True
        self.tamper(loosen)
        self.expect(simverify("gate", self.dir / "out"), 1,
                    'HOSTILE-HONEST-FAIL is marked passed but its threshold is "<= 1" in the '
                    'results, "<= 0.001" at ', stream="out")

    def test_the_sources_cut_out(self):
        pack = self.run_pack()

        def unsourced(doc):
            doc["requirements"] = [r for r in doc["requirements"]
                                   if r["id"] != "HOSTILE-HONEST-FAIL"]
            doc["summary"]["failed"] = 0
            del doc["plan"]["sources"]
        self.tamper(unsourced)
        self.expect(simverify("gate", self.dir / "out"), 1,
                    "does not record the requirement files it was run from", stream="out")
        # Given, they tell again.
        self.expect(simverify("gate", self.dir / "out", "--requirements", pack), 1,
                    "is planned but missing from the results", stream="out")

    def test_a_narrowed_run(self):
        pack = self.write("pack.yaml", PASS_AND_FAIL)
        run = simverify("run", pack, "--out", self.dir / "out", "--no-progress",
                        "--filter", "*-PASS")
        self.assertEqual(run.rc, 0, run)
        self.assertEqual(results(self.dir / "out")["plan"]["filter"], "*-PASS")
        self.expect(simverify("gate", self.dir / "out"), 1,
                    "the run was narrowed (--filter '*-PASS'): it planned 1 of the 2 "
                    "requirement(s)", stream="out")

    def test_measures_edited_with_their_values(self):
        self.run_pack()

        def halve(doc):
            for r in doc["requirements"]:
                if r["id"] == "HOSTILE-HONEST-FAIL":
                    for p in r["points"]:
                        p["measures"]["error_end"] /= 100
                        p["value"] = p["quality"] = p["measures"]["error_end"]
                        p["passed"] = True
                    r.update(status="passed", reason="")
            doc["summary"].update(passed=2, failed=0)
            doc["releasable"] = True
        self.tamper(halve)
        # Consistent with itself and with its file: only evaluating again tells.
        self.expect(simverify("gate", self.dir / "out"), 0, stream="out")
        self.expect(simverify("gate", self.dir / "out", "--recheck", "1"), 1,
                    "HOSTILE-HONEST-FAIL is marked passed but grid point ",
                    "re-evaluated gives the value", stream="out")

    def test_a_plotted_trajectory_edited(self):
        self.run_pack()
        # The report plots series/HOSTILE-HONEST-PASS/0-trajectory.csv; every recorded number
        # still agrees when only the curve is bent, so only evaluating again tells.
        csv = self.dir / "out" / "series" / "HOSTILE-HONEST-PASS" / "0-trajectory.csv"
        rows = csv.read_text().splitlines()
        time, _ = rows[3].split(",")
        rows[3] = f"{time},0.5"
        csv.write_text("\n".join(rows) + "\n")
        self.expect(simverify("gate", self.dir / "out", "--recheck", "all"), 1,
                    "HOSTILE-HONEST-PASS is marked passed but grid point 0 re-evaluated: its "
                    f"measure trajectory: {csv}:4: x is ", ", 0.5 in the file", stream="out")

    def test_a_reference_file_changed_since_the_run(self):
        # results.json names the reference CSV but does not hold it, and the fingerprint
        # covers only its name: the gate decides the values again against the file.
        reference = self.write("ref.csv", "x\n0.36787944117144233\n")
        pack = self.write("pack.yaml", """\
requirements:
  - id: HOSTILE-REFERENCE
    title: ode4 reaches the tabulated exp(-1)
    level: unit
    component: simulate
    conditions: {model: exponential, method: ode4, h: 0.1, tf: 1.0}
    quality:
      measure: x_end
      compare: {reference: {file: ref.csv, column: x}, norm: max_abs}
      threshold: "<= 1e-4"
""")
        run = simverify("run", pack, "--out", self.dir / "out", "--no-progress")
        self.assertEqual(run.rc, 0, run)
        self.expect(simverify("gate", self.dir / "out"), 0, stream="out")
        reference.write_text("x\n0.3679\n")  # still within 1e-4, but not what the run saw
        self.expect(simverify("gate", self.dir / "out"), 1,
                    "HOSTILE-REFERENCE is marked passed but grid point 0's value ",
                    f"is not what its measures give against the reference in {reference}",
                    "(the file changed since the run, or results.json was edited)", stream="out")


class BaselineNotFooled(HostileCase):
    """A baseline edited so that a regression looks old: diff (and the report's --baseline)
    decide a recorded failure again from its points too."""

    def test_a_forged_failure_in_the_baseline(self):
        pack = self.write("pack.yaml", PASS_AND_FAIL.replace('"<= 1e-3"', '"<= 1"'))
        base = self.dir / "base"
        self.expect(simverify("run", pack, "--out", base, "--no-progress"), 0, stream="out")
        new = self.dir / "new"
        tight = self.write("tight.yaml", PASS_AND_FAIL)
        simverify("run", tight, "--out", new, "--no-progress", "--fail-fast", "none")
        self.expect(simverify("diff", base, new), 1, "HOSTILE-HONEST-FAIL", stream="out")
        path = base / "results.json"
        doc = json.loads(path.read_text())
        for r in doc["requirements"]:
            if r["id"] == "HOSTILE-HONEST-FAIL":
                r.update(status="failed", reason="forged")
        doc["summary"].update(passed=1, failed=1)
        path.write_text(json.dumps(doc, indent=1))
        self.expect(simverify("diff", base, new), 2, "HOSTILE-HONEST-FAIL is marked failed but "
                    "its points say passed")
