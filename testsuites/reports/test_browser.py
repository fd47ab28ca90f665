#!/usr/bin/python3
"""Headless Chromium loads the rendered site from disk: the pages render, the verdict is
there, no console errors, and the screenshots are not blank. Screenshots are kept in
$SIMVERIFY_SCREENSHOTS (default: a temporary folder) for a human to look at."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

import matplotlib.image

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
REPORTS = Path(os.environ.get("SIMVERIFY_REPORTS_DIR", HERE.parents[1] / "reports"))
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
BANNER_RED = (0xFE, 0xE2, 0xE2)  # .banner.bad background
BANNER_GREEN = (0xDC, 0xFC, 0xE7)  # .banner.ok background


def chromium(url: str, profile: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
         f"--user-data-dir={profile}", "--window-size=1280,1000", "--enable-logging=stderr", "--v=0",
         *extra, url],
        capture_output=True, text=True, timeout=180)


def console_errors(stderr: str) -> list[str]:
    # Chromium logs page console messages as "...:INFO:CONSOLE:1] message" (older versions
    # "CONSOLE(1)") and failed loads of local files as "Not allowed to load" / "Failed to
    # load resource". Our pages have no scripts, so any console line is a problem.
    return [line for line in stderr.splitlines()
            if re.search(r":CONSOLE[:(]", line) or "Failed to load resource" in line
            or "Not allowed to load" in line or "Uncaught" in line]


def share_of(png: Path, colour: tuple[int, int, int]) -> float:
    pixels = matplotlib.image.imread(str(png))[..., :3]
    target = [c / 255 for c in colour]
    close = (abs(pixels[..., 0] - target[0]) < 0.02) & (abs(pixels[..., 1] - target[1]) < 0.02) & \
            (abs(pixels[..., 2] - target[2]) < 0.02)
    return float(close.mean())


@unittest.skipUnless(os.access(CHROMIUM, os.X_OK), "chromium is not installed")
class Browser(unittest.TestCase):
    def test_console_errors_are_detected(self) -> None:
        # The check below must be able to fail: a page with a script error is caught.
        with tempfile.TemporaryDirectory() as root:
            page = Path(root) / "bad.html"
            page.write_text("<html><body>x<script>undefined_function()</script></body></html>")
            result = chromium(page.as_uri(), Path(root) / "profile", "--dump-dom")
        self.assertNotEqual(console_errors(result.stderr), [])

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        cls.shots = Path(os.environ.get("SIMVERIFY_SCREENSHOTS", root / "shots"))
        cls.shots.mkdir(parents=True, exist_ok=True)
        cls.sites = {}
        for name in ("passing", "failing"):
            site = root / name
            subprocess.run(["/usr/bin/python3", str(REPORTS / "render.py"), str(FIXTURES / name), "--out", str(site),
                            "--coverage", str(FIXTURES / "coverage-summary.json"), "--date", "2026-01-01", "--quiet"],
                           check=True, timeout=300)
            cls.sites[name] = site

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def load(self, site: str, page: str, shot: str) -> tuple[str, Path]:
        url = (self.sites[site] / page).as_uri()
        with tempfile.TemporaryDirectory() as profile:
            dom = chromium(url, Path(profile), "--dump-dom")
        self.assertEqual(dom.returncode, 0, dom.stderr[-2000:])
        self.assertEqual(console_errors(dom.stderr), [], url)
        png = self.shots / shot
        with tempfile.TemporaryDirectory() as profile:
            result = chromium(url, Path(profile), f"--screenshot={png}", "--hide-scrollbars")
        self.assertEqual(result.returncode, 0, result.stderr[-2000:])
        self.assertTrue(png.is_file() and png.stat().st_size > 10_000, png)
        return dom.stdout, png

    def test_failing_index_shows_the_red_verdict(self) -> None:
        dom, png = self.load("failing", "index.html", "failing-index.png")
        self.assertIn("NOT RELEASABLE", dom)
        self.assertIn("&lt;script&gt;", dom)  # the hostile title is text, not an element
        self.assertNotRegex(dom, r"<script>alert")
        self.assertGreater(share_of(png, BANNER_RED), 0.03)  # the banner is drawn, in red

    def test_passing_index_shows_the_green_verdict(self) -> None:
        dom, png = self.load("passing", "index.html", "passing-index.png")
        self.assertIn("RELEASABLE", dom)
        self.assertNotIn("NOT RELEASABLE", dom)
        self.assertGreater(share_of(png, BANNER_GREEN), 0.02)

    def test_requirement_page_renders_its_plots(self) -> None:
        dom, _ = self.load("passing", "requirements/QC-ROAD-MEAN.html", "passing-QC-ROAD-MEAN.png")
        self.assertIn("Quarter car body acceleration", dom)
        self.assertGreaterEqual(len(re.findall(r'<img src="[^"]+\.svg"', dom)), 3)
        self.load("passing", "requirements/SOLVER-ODE4-ORDER.html", "passing-SOLVER-ODE4-ORDER.png")
        self.load("passing", "traceability.html", "passing-traceability.png")


if __name__ == "__main__":
    unittest.main()
