"""A Monte Carlo run that fails says which run and what it drew (docs/studies.md
"monte_carlo"). Fails on a simverify that passes the simulator's message on alone."""
import re
import unittest

from support import HostileCase, results, simverify

# tf drawn from N(0.5, 0.5): about one run in six draws tf <= 0 = t0, which the simulator
# refuses; of 20 runs the chance that none does is 0.84^20 = 3 %, and the seed is fixed, so
# the outcome is the same on every machine.
DRAWN_TF = """\
requirements:
  - id: M-TF
    title: tf normal, some runs negative
    level: integration
    component: monte_carlo
    conditions:
      model: exponential
      method: ode45
      runs: 20
      perturb: {tf: {normal: [0.5, 0.5]}}
      of: "x_end[0]"
    quality: {measure: mean, threshold: "<= 1"}
"""


class RunAndDrawNamed(HostileCase):
    def test_invalid_drawn_input(self):
        pack = self.write("m.yaml", DRAWN_TF)
        run = simverify("run", pack, "--out", self.dir / "o", "--no-progress")
        self.assertEqual(run.rc, 1, run)
        reason = results(self.dir / "o")["requirements"][0]["reason"]
        match = re.search(r"run (\d+) of 20 \(drawn tf = (-?[0-9.e+-]+); seed \d+\): "
                          r"simulator: tf must be greater than t0", reason)
        self.assertIsNotNone(match, reason)
        self.assertLessEqual(float(match.group(2)), 0.0)


if __name__ == "__main__":
    unittest.main()
