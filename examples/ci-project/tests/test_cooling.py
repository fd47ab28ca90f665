"""Unit tests of sim/cooling.py (run with coverage by the pipeline's `test` job)."""
import io
import json
import math
import sys
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim"))
import cooling  # noqa: E402


class CoolingTest(unittest.TestCase):
    def test_rk4_is_exact_for_a_constant_slope(self):
        self.assertAlmostEqual(cooling.rk4_step(lambda t, y: 2.0, 0.0, 1.0, 0.5), 2.0)

    def test_simulation_follows_the_exact_solution(self):
        # RK4's global error is O(h^4): at h = 0.5 min and k = 0.05/min about 1e-7 K.
        times, temps = cooling.simulate(0.05, 20.0, 90.0, 0.5, 30.0)
        self.assertEqual(len(times), 61)
        self.assertAlmostEqual(temps[-1], cooling.exact(0.05, 20.0, 90.0, 30.0), delta=1e-5)

    def test_drinkable_after_interpolates_the_crossing(self):
        self.assertAlmostEqual(cooling.drinkable_after([0, 1, 2], [80, 70, 50]), 1.5)
        self.assertEqual(cooling.drinkable_after([0, 1], [55, 50]), 0.0)
        self.assertIsNone(cooling.drinkable_after([0, 1], [90, 85]))

    def test_drinkable_after_matches_the_exact_time(self):
        k = 0.05
        times, temps = cooling.simulate(k, 20.0, 90.0, 0.25, 60.0)
        exact = math.log((90.0 - 20.0) / (60.0 - 20.0)) / k  # solve exact(t) = 60
        self.assertAlmostEqual(cooling.exact_drinkable_after(k, 20.0, 90.0), exact)
        # Linear interpolation between steps: error <= h^2/8 max|T''| ~ 2e-3 min here.
        self.assertAlmostEqual(cooling.drinkable_after(times, temps), exact, delta=5e-3)

    def test_main_answers_the_command_protocol(self):
        point = {"requirement": "R", "point": 0, "seed": 1,
                 "conditions": {"k": 0.05, "h": 1.0, "tf": 20.0}}
        out = io.StringIO()
        with mock.patch.object(sys, "stdin", io.StringIO(json.dumps(point))), \
                mock.patch.object(sys, "stdout", out):
            cooling.main()
        result = json.loads(out.getvalue())["measures"]
        # RK4's local error for T' = -k T is (k h)^5/120 of T - T_room: the n = 20 steps add
        # up to n (k h)^5/120 (T0 - T_room) exp(-k tf) = 1.3e-6 K.
        self.assertLess(result["error_end"], 5e-6)
        # Interpolating linearly between steps: h^2/8 max|T''| = h^2/8 k^2 70 K = 0.022 min.
        self.assertLess(result["drinkable_error"], 0.03)
        self.assertEqual(len(result["y.temperature"]["t"]), 21)


if __name__ == "__main__":
    unittest.main()
