#!/usr/bin/python3
"""bench/plot_work_precision.py: a diagram from a CSV as ode_peers_bench writes it, clear
errors (file:line, column) for CSVs it cannot draw, and no PNG left behind by a failure."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

BENCH = Path(os.environ.get("SIMVERIFY_BENCH_DIR", Path(__file__).resolve().parents[2] / "bench"))
SCRIPT = BENCH / "plot_work_precision.py"
HEADER = "matchup,role,contender,tol,f_evals,steps,rejected,end_error,us_per_solve\n"


def rows(matchup: str, role: str, contender: str, scale: float) -> str:
    """A power-law curve: cost ~ error^(-1/5), as a 5th-order method's."""
    lines = []
    for k in range(8):
        tol = 10.0 ** (-2 - k)
        error = 3.0 * tol
        f_evals = scale * 100.0 * error ** -0.2
        lines.append(f"{matchup},{role},{contender},{tol},{f_evals:.0f},{f_evals / 6:.0f},2,"
                     f"{error},{f_evals * 0.03}\n")
    return "".join(lines)


class PlotWorkPrecision(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = tempfile.TemporaryDirectory()
        self.root = Path(self.dir.name)

    def tearDown(self) -> None:
        self.dir.cleanup()

    def run_script(self, csv_text: str) -> tuple[subprocess.CompletedProcess, Path]:
        source = self.root / "wp.csv"
        source.write_text(csv_text)
        png = self.root / "out" / "wp.png"
        done = subprocess.run([sys.executable, str(SCRIPT), str(source), str(png)],
                              capture_output=True, text=True, check=False)
        return done, png

    def test_draws_every_matchup(self) -> None:
        text = (HEADER + rows("arenstorf: ode45 vs odeint_dopri5", "ours", "ode45", 1.0) +
                rows("arenstorf: ode45 vs odeint_dopri5", "peer", "odeint_dopri5", 1.1) +
                rows("robertson: ode15s vs cvode_bdf", "ours", "ode15s", 0.5) +
                rows("robertson: ode15s vs cvode_bdf", "peer", "cvode_bdf", 0.7))
        done, png = self.run_script(text)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("2 matchups", done.stdout)
        data = png.read_bytes()
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
        # Two rows of panels at 90 dpi: the PNG's height (bytes 20-24 of IHDR) shows both.
        height = int.from_bytes(data[20:24], "big")
        self.assertGreater(height, 500)
        self.assertEqual(list(png.parent.glob("*.partial")), [])

    def test_a_non_number_names_line_and_column_and_writes_nothing(self) -> None:
        text = HEADER + rows("m", "ours", "ode45", 1.0) + "m,ours,ode45,1e-9,many,3,0,1e-8,5\n"
        done, png = self.run_script(text)
        self.assertEqual(done.returncode, 2)
        self.assertIn("wp.csv:10: column 5 (f_evals): expected a number, found 'many'",
                      done.stderr)
        self.assertFalse(png.exists())

    def test_a_missing_column_is_named(self) -> None:
        done, png = self.run_script("matchup,role,contender,tol\nm,ours,ode45,1e-3\n")
        self.assertEqual(done.returncode, 2)
        self.assertIn("wp.csv:1: missing column(s) f_evals, steps, rejected, end_error, "
                      "us_per_solve", done.stderr)
        self.assertFalse(png.exists())

    def test_an_unknown_role_is_refused(self) -> None:
        done, _ = self.run_script(HEADER + "m,both,ode45,1e-3,10,2,0,1e-3,5\n")
        self.assertEqual(done.returncode, 2)
        self.assertIn("wp.csv:2: column 2 (role): expected ours or peer, found 'both'",
                      done.stderr)

    def test_no_rows_is_an_error(self) -> None:
        done, png = self.run_script(HEADER)
        self.assertEqual(done.returncode, 2)
        self.assertIn("no rows to plot", done.stderr)
        self.assertFalse(png.exists())

    def test_a_missing_file_is_named(self) -> None:
        png = self.root / "wp.png"
        done = subprocess.run([sys.executable, str(SCRIPT), str(self.root / "absent.csv"),
                               str(png)], capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 2)
        self.assertIn("absent.csv: No such file or directory", done.stderr)


if __name__ == "__main__":
    unittest.main()
