"""The weight axis a weighted aggregate names is the runner's (docs/requirements-format.md
"Weighted cases"): a built-in component accepts it. Fails on a simverify that held it to the
component's conditions ("component 'simulate' has no condition 'weight'") and then reported
the zipped axis as no condition at all."""
import math
import unittest

from support import HostileCase, results, simverify

WEIGHTED = """\
requirements:
  - id: Z-W
    title: weighted over simulated cases
    level: integration
    component: simulate
    conditions:
      model: exponential
      method: ode45
      zip: {p.lambda: [-0.5, -1.0, -1.5, -2.0], weight: [0.1, 0.2, 0.3, 0.4]}
    quality:
      measure: final(x_end)
      aggregate: {over: [p.lambda], statistic: weighted_mean, weight: weight}
      threshold: "<= 0.3"
"""


class WeightAxisIsTheRunners(HostileCase):
    def test_simulate_weighs_its_cases(self):
        pack = self.write("z.yaml", WEIGHTED)
        self.expect(simverify("validate", pack), 0, stream="out")
        run = simverify("run", pack, "--out", self.dir / "out", "--no-progress")
        self.assertEqual(run.rc, 0, run)
        q = results(self.dir / "out")["requirements"][0]
        # x' = lambda x, x(0) = 1 on [0, 1]: x(1) = exp(lambda). ode45 at its default
        # tolerances is within 1e-3 of it (relative error ~1e-4 at most on these decays).
        exact = sum(w * math.exp(lam) for lam, w in
                    zip((-0.5, -1.0, -1.5, -2.0), (0.1, 0.2, 0.3, 0.4)))
        self.assertAlmostEqual(q["groups"][0]["quality"], exact, delta=1e-3)
        self.assertEqual([p["condition"]["weight"] for p in q["points"]], [0.1, 0.2, 0.3, 0.4])

    def test_a_typo_is_still_refused(self):
        # Only the axis the aggregate names is the runner's: another unknown one is refused,
        # once, and the zip's other axes are not reported again as unknown.
        pack = self.write("z.yaml", WEIGHTED.replace("weight: [0.1", "wieght: [0.1"))
        run = simverify("validate", pack)
        self.assertEqual(run.rc, 2, run)
        self.assertIn("component 'simulate' has no condition 'wieght'", run.err)
        self.assertNotIn("aggregate over 'p.lambda'", run.err)


if __name__ == "__main__":
    unittest.main()
