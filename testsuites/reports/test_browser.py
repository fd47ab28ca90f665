#!/usr/bin/python3
"""Headless Chromium loads the rendered site from disk: the pages render, the verdict is
there, no console errors, the table script filters and sorts, and the screenshots are not
blank. Screenshots are kept in $SIMVERIFY_SCREENSHOTS (default: a temporary folder) for a
human to look at; the four shown in docs/reports.md (index, failing requirement, Monte Carlo,
baseline comparison) are taken here too, and SIMVERIFY_UPDATE_DOC_IMAGES=1 copies them to
docs/images."""

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

from fixture_gate import without_source_check  # noqa: E402  (beside this file)
DOC_IMAGES = HERE.parents[1] / "docs" / "images"
SIMVERIFY = os.environ.get("SIMVERIFY", "")
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
            # As `simverify report` renders it: with the gate's decision (verdicts, coverage).
            gate = root / f"gate-{name}.json"
            subprocess.run([SIMVERIFY, "gate", str(FIXTURES / name), "--coverage", str(FIXTURES / "coverage-summary.json"),
                            "--json", str(gate)], capture_output=True, timeout=120)
            without_source_check(gate)
            subprocess.run(["/usr/bin/python3", str(REPORTS / "render.py"), str(FIXTURES / name), "--out", str(site),
                            "--gate", str(gate), "--coverage", str(FIXTURES / "coverage-summary.json"),
                            "--date", "2026-01-01", "--quiet"], check=True, timeout=300)
            cls.sites[name] = site
        if SIMVERIFY:
            # The baseline comparison as `simverify report --baseline --history` draws it.
            diff = subprocess.run([SIMVERIFY, "diff", str(FIXTURES / "baseline"), str(FIXTURES / "failing"), "--json"],
                                  capture_output=True, text=True, timeout=120)
            (root / "diff.json").write_text(diff.stdout)
            history = []
            for earlier in ("baseline", "incomplete"):
                compared = subprocess.run([SIMVERIFY, "diff", str(FIXTURES / earlier), str(FIXTURES / "failing"),
                                           "--json"], capture_output=True, text=True, timeout=120)
                history.append(root / f"history-{earlier}.json")
                history[-1].write_text(compared.stdout)
            subprocess.run(["/usr/bin/python3", str(REPORTS / "render.py"), str(FIXTURES / "failing"), "--out",
                            str(root / "compared"), "--gate", str(root / "gate-failing.json"), "--diff",
                            str(root / "diff.json"), "--history", *map(str, history), "--date", "2026-01-01",
                            "--quiet"], check=True, timeout=300)
            cls.sites["compared"] = root / "compared"

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def load(self, site: str, page: str, shot: str, query: str = "", height: int = 1000) -> tuple[str, Path]:
        url = (self.sites[site] / page).as_uri() + query
        with tempfile.TemporaryDirectory() as profile:
            dom = chromium(url, Path(profile), "--dump-dom")
        self.assertEqual(dom.returncode, 0, dom.stderr[-2000:])
        self.assertEqual(console_errors(dom.stderr), [], url)
        png = self.shots / shot
        with tempfile.TemporaryDirectory() as profile:
            result = chromium(url, Path(profile), f"--screenshot={png}", "--hide-scrollbars",
                              f"--window-size=1280,{height}")
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


    def test_table_script_filters_and_sorts_from_the_url(self) -> None:
        dom, _ = self.load("passing", "index.html", "passing-index-filtered.png", "?level=system&sort=Margin")
        self.assertIn('class="table-tools"', dom)  # the controls exist only with JavaScript
        rows = re.findall(r'<tr class="row-[a-z]+" data-status="[a-z]+" data-level="([a-z]+)"[^>]*?( hidden="")?>', dom)
        shown = [level for level, hidden in rows if not hidden]
        self.assertEqual(len(rows), 6)
        self.assertEqual(shown, ["system"] * 3)
        self.assertIn("3 of 6 shown", dom)
        # Sorted by margin, ascending: the smallest margin first among all rows.
        margins = [float(m) for m in re.findall(r'<td class="num" data-value="([-0-9.e]+)"><span class="(?:pos|neg)"', dom)]
        self.assertEqual(margins, sorted(margins))

    def test_screenshots_for_the_documentation(self) -> None:
        hostile = next(p.name for p in (self.sites["failing"] / "requirements").iterdir() if p.name.startswith("_script"))
        shots = [("passing", "index.html", "", "report-index.png", 1100),
                 ("failing", f"requirements/{hostile}", "", "report-failing-requirement.png", 1300),
                 ("passing", "requirements/C7-PIN-QUANTILE.html", "", "report-monte-carlo.png", 1250)]
        if "compared" in self.sites:
            shots.append(("compared", "index.html", "", "report-baseline.png", 1300))
        for site, page, fragment, name, height in shots:
            _, png = self.load(site, page, name, fragment, height=height)
            self.assertGreater(share_of(png, (0xFF, 0xFF, 0xFF)), 0.2, name)  # panels drawn, not blank
            if os.environ.get("SIMVERIFY_UPDATE_DOC_IMAGES") == "1":
                shutil.copy2(png, DOC_IMAGES / name)
        for name in ("report-index.png", "report-failing-requirement.png", "report-monte-carlo.png",
                     "report-baseline.png"):
            self.assertTrue((DOC_IMAGES / name).is_file(), f"docs/images/{name} is missing")
            self.assertIn(f"images/{name}", (HERE.parents[1] / "docs" / "reports.md").read_text())


if __name__ == "__main__":
    unittest.main()
