"""A requirement in error has no worst value (docs/runner.md "results.json"): a point could not
be evaluated, so the passing point's quality is not its worst. Fails on a simverify that
records "worst" from the points that were evaluated."""
import unittest

from support import HostileCase, results, simverify

# The bouncing ball dropped from 2 m bounces once before t = 1 and several times before
# t = 3: event_times[2] is out of range at tf = 1 (an error) and a number at tf = 3.
ONE_ERRS = """\
requirements:
  - id: E-EVT
    title: a missing event
    level: integration
    component: sensitivity
    conditions:
      model: bouncing_ball
      method: ode45
      x0: [[2.0, 0.0]]
      tf: [1.0, 3.0]
      wrt: p.e
      of: "event_times[2]"
    quality: {measure: derivative, threshold: ">= 0"}
"""


class ErrorHasNoWorst(HostileCase):
    def test_run_and_merge(self):
        pack = self.write("e.yaml", ONE_ERRS)
        run = simverify("run", pack, "--out", self.dir / "out", "--no-progress")
        self.assertEqual(run.rc, 1, run)
        q = results(self.dir / "out")["requirements"][0]
        self.assertEqual(q["status"], "error")
        self.assertIn("event_times[2] is out of range", q["reason"])
        self.assertIsNone(q["worst"])
        self.assertIsNone(q["worst_point"])
        for i in (1, 2):
            simverify("run", pack, "--out", self.dir / f"s{i}", "--shard", f"{i}/2",
                      "--no-progress")
        merge = simverify("merge", self.dir / "s1", self.dir / "s2", "--out", self.dir / "m")
        self.assertEqual(merge.rc, 1, merge)
        m = results(self.dir / "m")["requirements"][0]
        self.assertEqual((m["status"], m["worst"], m["worst_point"]), ("error", None, None))


if __name__ == "__main__":
    unittest.main()
