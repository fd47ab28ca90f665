#!/usr/bin/python3
"""bench/ode_peers_bench --instructions: one cheap row (Arenstorf, ode45_fixed against odeint's
dopri5 on std::array at 1e-6) counted under callgrind gives the table with finite positive
ratios, each contender and tolerance counted once, and no temporary files left behind; a
filter that keeps no row is an error. Skipped without valgrind (ci/install-deps --bench)."""

from __future__ import annotations

import math
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

BENCH = os.environ["SIMVERIFY_ODE_PEERS_BENCH"]
VALGRIND = "/usr/bin/valgrind"
ROW = "arenstorf/ode45_fixed/tol:1e-06$"


class InstructionsAtEqualError(unittest.TestCase):
    def run_bench(self, flag: str, tmp: Path) -> subprocess.CompletedProcess:
        return subprocess.run([BENCH, flag], capture_output=True, text=True, check=False,
                              timeout=600, env={**os.environ, "TMPDIR": str(tmp)})

    @unittest.skipUnless(os.access(VALGRIND, os.X_OK), f"needs {VALGRIND}")
    def test_one_row(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            done = self.run_bench(f"--instructions={ROW}", Path(tmp))
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(list(Path(tmp).iterdir()), [], "temporary directory left behind")
        lines = done.stdout.splitlines()
        self.assertTrue(lines[0].startswith("Instructions per solve"), done.stdout)
        self.assertTrue(lines[1].split()[-1] == "i@=err", done.stdout)
        rows = [line.split() for line in lines if line.startswith("arenstorf ")]
        self.assertEqual(len(rows), 1, done.stdout)
        row = rows[0]
        self.assertEqual(row[:4], ["arenstorf", "ode45_fixed", "1e-06", "odeint_dopri5_array"])
        self.assertEqual(row[7], "|", done.stdout)
        for name, text in (("i ratio", row[6]), ("i@=err", row[-1])):
            value = float(text)
            self.assertTrue(math.isfinite(value) and value > 0.0, f"{name}: {text}")
        self.assertTrue(lines[-1].startswith("i ratio: ours / peer"), done.stdout)
        # The peer at 1e-6, ours at 1e-6 (also the bracket's lower end) and at the upper end,
        # each at two solve counts.
        progress = [line for line in done.stderr.splitlines() if line.startswith("instructions:")]
        self.assertEqual(len(progress), 6, done.stderr)

    def test_a_filter_that_keeps_no_row_is_an_error(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            done = self.run_bench("--instructions=no_such_contender", Path(tmp))
        self.assertEqual(done.returncode, 2)
        self.assertIn("--instructions: 'no_such_contender' keeps no row", done.stderr)
        self.assertEqual(done.stdout, "")


if __name__ == "__main__":
    unittest.main()
