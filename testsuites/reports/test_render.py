#!/usr/bin/python3
"""Renderer tests: the site from each results fixture, escaping, errors, atomic output."""

from __future__ import annotations

import contextlib
import copy
import html.parser
import re
import io
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import unittest.mock
from pathlib import Path
from typing import Any, Iterator

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
REPORTS = Path(os.environ.get("SIMVERIFY_REPORTS_DIR", HERE.parents[1] / "reports"))
sys.path.insert(0, str(REPORTS))

import plots  # noqa: E402
import render  # noqa: E402
from model import Threshold, load_report, slug_of  # noqa: E402

sys.path.insert(0, str(HERE))
from fixture_gate import without_source_check  # noqa: E402

HOSTILE = "<script>alert('x')</script>"
PYTHON = "/usr/bin/python3"


class Result:
    def __init__(self, returncode: int, stderr: str) -> None:
        self.returncode, self.stderr = returncode, stderr


SIMVERIFY = os.environ.get("SIMVERIFY", "")
if not SIMVERIFY:
    sys.exit("SIMVERIFY (the simverify executable) must be set: the report renders the gate's decision")
GATES = tempfile.TemporaryDirectory()


def gate_decision(results: str, coverage: str | None = None) -> str:
    """The decision `simverify report` hands the renderer: `simverify gate --json`. For input the
    gate refuses (exit 2) the renderer must refuse it too, reading results.json first; it gets
    an empty decision then."""
    out = Path(GATES.name) / f"gate-{len(list(Path(GATES.name).iterdir()))}.json"
    command = [SIMVERIFY, "gate", results, "--json", str(out)] + (["--coverage", coverage] if coverage else [])
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode == 2:
        out.write_text(json.dumps({"releasable": False, "checks": [], "requirements": [], "coverage": None}))
    elif result.returncode not in (0, 1):
        raise AssertionError(f"simverify gate: exit {result.returncode}: {result.stderr}")
    elif Path(results).resolve().is_relative_to(FIXTURES):
        without_source_check(out)
    return str(out)


def with_gate(args: tuple[str, ...]) -> list[str]:
    if "--gate" in args:
        return list(args)
    coverage = args[args.index("--coverage") + 1] if "--coverage" in args else None
    return [*args, "--gate", gate_decision(args[0], coverage)]


class DrawnFigures:
    """A site's figures depend on its results alone, not on --out, --gate or the coverage, and
    drawing them is nearly all of a render's time: tests about the pages and files of a site (not
    its figures) reuse what an earlier render of the same results drew. Tests about drawing draw
    afresh (run_renderer's default)."""

    def __init__(self) -> None:
        self.folder = tempfile.TemporaryDirectory()
        self.drawn: dict[Path, tuple[Path, list]] = {}

    @contextlib.contextmanager
    def reused(self) -> Iterator[None]:
        draw_all = render.draw_all

        def draw_once(report: Any, folder: Path) -> list:
            results = report.results_dir.resolve()
            if results not in self.drawn:
                figures = draw_all(report, folder)
                saved = Path(self.folder.name) / str(len(self.drawn))
                shutil.copytree(folder, saved)
                self.drawn[results] = (saved, figures)
            saved, figures = self.drawn[results]
            shutil.copytree(saved, folder, dirs_exist_ok=True)
            return copy.deepcopy(figures)

        render.draw_all = draw_once
        try:
            yield
        finally:
            render.draw_all = draw_all


DRAWN = DrawnFigures()


def run_renderer(*args: str, reuse_figures: bool = False) -> Result:
    """The renderer's main() in this process: importing matplotlib once keeps the suite fast."""
    err = io.StringIO()
    argv = with_gate(args)
    with contextlib.redirect_stderr(err), (DRAWN.reused() if reuse_figures else contextlib.nullcontext()):
        code = render.main([*argv, "--date", "2026-01-01", "--quiet"])
    return Result(code, err.getvalue())


def run_renderer_process(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PYTHON, str(REPORTS / "render.py"), *with_gate(args), "--date", "2026-01-01", "--quiet"],
                          capture_output=True, text=True, timeout=600)


class Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []
        self.scripts: list[str | None] = []  # each <script>'s src (None: inline)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "script":
            self.scripts.append(dict(attrs).get("src"))
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.targets.append(value)


class Rendered(unittest.TestCase):
    """Renders each fixture once into a temporary folder."""

    sites: dict[str, Path] = {}

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        for name in ("passing", "failing", "incomplete"):
            site = Path(cls.tmp.name) / name
            result = run_renderer(str(FIXTURES / name), "--out", str(site),
                                  "--coverage", str(FIXTURES / "coverage-summary.json"))
            if result.returncode != 0:
                raise AssertionError(f"render {name} failed: {result.stderr}")
            cls.sites[name] = site

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def page(self, site: str, path: str = "index.html") -> str:
        return (self.sites[site] / path).read_text(encoding="utf-8")

    def pages(self, site: str) -> list[Path]:
        return sorted(self.sites[site].rglob("*.html"))

    def test_passing_run_is_releasable_with_every_page(self) -> None:
        index = self.page("passing")
        self.assertIn("RELEASABLE", index)
        self.assertNotIn("NOT RELEASABLE", index)
        names = {p.name for p in (self.sites["passing"] / "requirements").iterdir()}
        self.assertEqual(names, {f"{i}.html" for i in
                                 ("SOLVER-ODE4-ORDER", "SIM-ODE45-TOL", "SIM-STEP-GRID", "SIM-MULTI", "QC-ROAD-MEAN",
                                  "C7-PIN-QUANTILE")})
        self.assertIn("83.4%", index)  # coverage figures
        # The verdict banner speaks plainly; lecture references belong to docs and traces.
        banner = index[index.index('id="verdict"'):index.index("</section>", index.index('id="verdict"'))]
        self.assertNotIn("Def 5.", banner)

    def test_plot_kind_follows_the_grid_and_aggregate(self) -> None:
        plots = {p.name for p in (self.sites["passing"] / "plots").iterdir()}
        self.assertIn("SOLVER-ODE4-ORDER-convergence.svg", plots)  # order: log-log with slope
        self.assertIn("SIM-ODE45-TOL-grid.svg", plots)  # one axis: line plot
        self.assertIn("QC-ROAD-MEAN-statistics.svg", plots)  # ci_upper: box plot
        self.assertIn("QC-ROAD-MEAN-point0.svg", plots)  # worst point trajectory from series/
        heatmap = (self.sites["passing"] / "plots" / "SIM-STEP-GRID-grid.svg").read_text()
        self.assertIn("<image", heatmap)  # imshow: two axes give a heatmap
        convergence = self.page("passing", "requirements/SOLVER-ODE4-ORDER.html")
        self.assertIn("Fitted slope", convergence)
        # Aggregated points have no quality of their own: the table shows the measured value
        # and the group that was judged.
        self.assertIn("Judged in group", convergence)
        self.assertIn("4", convergence)
        stats = self.page("passing", "requirements/QC-ROAD-MEAN.html")
        self.assertIn("95% CI", stats)

    def test_failing_run_names_its_reasons(self) -> None:
        index = self.page("failing")
        self.assertIn("NOT RELEASABLE", index)
        self.assertIn("SIM-ERROR error: 1 point(s) raised an error", index)
        self.assertIn('class="chip failed"', index)
        self.assertIn('class="chip error"', index)

    def test_incomplete_run_is_not_releasable(self) -> None:
        index = self.page("incomplete")
        self.assertIn("NOT RELEASABLE", index)
        self.assertIn("the run is incomplete", index)
        self.assertIn("SIM-LATER did not run: interrupted", index)

    def test_hostile_strings_are_escaped_everywhere(self) -> None:
        for path in self.pages("failing"):
            # The page's own table script aside, no <script> may appear.
            text = path.read_text(encoding="utf-8").replace('<script src="static/table.js"></script>', "")
            self.assertNotIn("<script", text, path)
            self.assertNotIn("'x')</", text, path)
        index = self.page("failing")
        self.assertIn("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &#34;quotes&#34;", index)
        slug = slug_of(HOSTILE + " & \"quotes\" $x$")
        self.assertRegex(slug, r"^[A-Za-z0-9._-]+$")
        self.assertTrue((self.sites["failing"] / "requirements" / f"{slug}.html").is_file())
        trace = self.page("failing", "traceability.html")
        self.assertIn("doc &lt;script&gt;", trace)

    def test_pages_have_no_inline_scripts_and_no_dangling_links(self) -> None:
        # The one script is the table's local, optional static/table.js; nothing inline (a
        # hostile string can never become code) and nothing from the network.
        for site in self.sites:
            for path in self.pages(site):
                links = Links()
                links.feed(path.read_text(encoding="utf-8"))
                for src in links.scripts:
                    self.assertIsNotNone(src, f"{path}: inline script")
                    self.assertTrue(src.endswith("static/table.js"), f"{path}: script {src}")
                for target in links.targets:
                    self.assertNotRegex(target, r"^(https?:)?//", f"{path}: external {target}")
                    local = (path.parent / target.split("#")[0]).resolve()
                    self.assertTrue(local.exists(), f"{path}: dangling link {target}")

    def test_requirement_table_carries_what_the_script_filters_and_sorts_by(self) -> None:
        index = self.page("passing")
        self.assertIn('<script src="static/table.js"></script>', index)
        self.assertTrue((self.sites["passing"] / "static" / "table.js").is_file())
        self.assertIn('data-status="passed" data-level="system" data-component="monte_carlo"', index)
        self.assertIn('<th class="num" data-sort="number">Margin</th>', index)
        # Without JavaScript the table is complete: every requirement has its row.
        self.assertEqual(index.count('<tr class="row-'), 6)

    def test_every_grid_point_has_an_anchor_its_measures_and_links(self) -> None:
        page = self.page("passing", "requirements/QC-ROAD-MEAN.html")
        for i in range(8):
            self.assertIn(f'id="point-{i}"', page)
        series = os.path.relpath(FIXTURES / "passing", self.sites["passing"]) + "/series/QC-ROAD-MEAN/3-y.body.csv"
        self.assertIn(f'href="../{series}"', page)
        self.assertIn("results.json", page)
        doc = json.loads((FIXTURES / "passing" / "results.json").read_text())
        value = next(r for r in doc["requirements"] if r["id"] == "QC-ROAD-MEAN")["points"][3]["measures"]["rms(y.body)"]
        self.assertIn(f'<span class="k">rms(y.body)</span> {render.format_number(value)} '
                      '<span class="unit">m/s^2</span></span>', page)

    def test_monte_carlo_page_shows_samples_and_their_statistics(self) -> None:
        page = self.page("passing", "requirements/C7-PIN-QUANTILE.html")
        self.assertIn('id="monte-carlo"', page)
        self.assertTrue((self.sites["passing"] / "plots" / "C7-PIN-QUANTILE-montecarlo.svg").is_file())
        doc = json.loads((FIXTURES / "passing" / "results.json").read_text())
        study = doc["requirements"][-1]["points"][1]["measures"]
        samples = study["samples"]
        mean = sum(samples) / len(samples)
        # The page's numbers are results.json's, and they are the samples' (mean recomputed).
        self.assertAlmostEqual(study["mean"], mean, places=12)
        self.assertIn(f'<td class="num">{render.format_number(study["mean"])}</td>', page)
        self.assertIn(f'<td class="num">{render.format_number(study["std"])}</td>', page)
        self.assertIn(f'[{render.format_number(study["ci_lower"])}, {render.format_number(study["ci_upper"])}]', page)
        self.assertIn('<td class="num">40</td>', page)

    def test_conditions_read_as_written(self) -> None:
        page = self.page("passing", "requirements/C7-PIN-QUANTILE.html")
        self.assertIn("p.phi_pin uniform [-0.2718, -0.2518]", page)
        self.assertNotIn("{&#34;", page)  # no raw JSON objects

    def test_traceability_lists_source_component_and_tests(self) -> None:
        trace = self.page("passing", "traceability.html")
        for text in ("Simulink solver list, eq. 3", "testsuites/integration/ode45_test.cpp", "<code>step</code>",
                     "simulation/src/models/quarter_car.cpp"):
            self.assertIn(text, trace)


class Behaviour(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_every_template_autoescapes_and_is_strict(self) -> None:
        env = render.make_environment()
        names = env.list_templates()
        self.assertGreaterEqual(len(names), 4)
        for name in names:
            self.assertTrue(env.autoescape(name) if callable(env.autoescape) else env.autoescape, name)
        with self.assertRaises(Exception):
            env.from_string("{{ missing }}").render()

    def test_the_run_box_names_the_commit_the_run_recorded(self) -> None:
        # A report rendered in another checkout or pipeline (results downloaded from an older
        # one) names the commit results.json records, never the renderer's own.
        with unittest.mock.patch.dict(os.environ, {"CI_COMMIT_SHA": "feedfacefeed"}):
            for fixture, commit, started in (("baseline", "<code>0123456789ab</code>", "2026-11-20 08:00:00 UTC"),
                                             ("passing", '<span class="muted">unknown</span>', "unknown")):
                site = self.dir / fixture
                result = run_renderer(str(FIXTURES / fixture), "--out", str(site))
                self.assertEqual(result.returncode, 0, result.stderr)
                index = (site / "index.html").read_text(encoding="utf-8")
                self.assertIn(f"<dt>Commit</dt><dd>{commit}</dd>", index)
                self.assertIn(f"<dt>Started</dt><dd>{started}</dd>", index)
                self.assertNotIn("feedface", index)

    def test_console_text_shows_controls_and_bidi_overrides_as_escapes(self) -> None:
        self.assertEqual(render.terminal_text("a\x1b[2J\nb \u202eELBASAELER \u05d0"),
                         "a\\u001b[2J\\u000ab \\u202eELBASAELER \u05d0")

    def test_gate_decision_drives_the_banner(self) -> None:
        gate = self.dir / "gate.json"
        decided = json.loads(Path(gate_decision(str(FIXTURES / "passing"))).read_text())
        self.assertTrue(decided["releasable"])
        # Each requirement's status is the gate's, not results.json's: the gate counts a pass its
        # points do not support as failed, and the page must show it so.
        first = decided["requirements"][0]
        self.assertEqual(first["status"], "passed")
        first.update(status="failed", reason="marked passed but grid point 0 failed its threshold")
        decided.update(releasable=False, checks=[{"ok": False, "text": "line coverage 12.0% is below the bar"}])
        gate.write_text(json.dumps(decided))
        result = run_renderer(str(FIXTURES / "passing"), "--out", str(self.dir / "site"), "--gate", str(gate),
                              reuse_figures=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        index = (self.dir / "site" / "index.html").read_text()
        self.assertIn("NOT RELEASABLE", index)
        self.assertIn("line coverage 12.0% is below the bar", index)
        slug = slug_of(first["id"])
        self.assertRegex(index, rf'<tr class="row-failed" data-status="failed"[^>]*>\s*<td[^\n]*</td>\s*<td><a href="requirements/{re.escape(slug)}.html')
        page = (self.dir / "site" / "requirements" / f"{slug}.html").read_text()
        self.assertIn("grid point 0 failed its threshold", page)
        # Its worst and margin are results.json's claims, which the gate does not believe:
        # struck through, and only for that requirement.
        disbelieved = '<s class="muted" title="as results.json records it; the gate does not believe it">'
        row = re.search(rf'<tr class="row-failed".*?{re.escape(slug)}\.html.*?</tr>', index, re.S)
        self.assertIsNotNone(row)
        self.assertEqual(row.group(0).count(disbelieved), 2, row.group(0))
        self.assertEqual(index.count(disbelieved), 2)
        self.assertEqual(page.count(disbelieved), 2)
        # A decision that does not list the results' requirements is refused.
        decided["requirements"] = decided["requirements"][1:]
        gate.write_text(json.dumps(decided))
        result = run_renderer(str(FIXTURES / "passing"), "--out", str(self.dir / "site2"), "--gate", str(gate),
                              reuse_figures=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("gate.json: expected \"requirements\" to list the", result.stderr)

    def test_bad_input_exits_2_naming_the_file(self) -> None:
        missing = run_renderer_process(str(self.dir / "nope"), "--out", str(self.dir / "site"))
        self.assertEqual(missing.returncode, 2)
        self.assertIn("nope/results.json", missing.stderr)
        broken = self.dir / "broken"
        broken.mkdir()
        (broken / "results.json").write_text('{"format": "simverify.results/1",\n "requirements": [}')
        result = run_renderer(str(broken), "--out", str(self.dir / "site"))
        self.assertEqual(result.returncode, 2)
        self.assertIn("results.json:2:", result.stderr)
        (broken / "results.json").write_text('{"format": "other/2", "requirements": []}')
        result = run_renderer(str(broken), "--out", str(self.dir / "site"))
        self.assertIn('expected format "simverify.results/1"', result.stderr)
        self.assertFalse((self.dir / "site").exists())

    def test_a_repeated_key_is_refused_naming_its_place(self) -> None:
        # json keeps the last of two equal keys: a "status" appended to a failed requirement
        # would turn it passed. Refused as simverify's own readers refuse it, in nested
        # objects too, with the key's line and column; the gate decision file as well.
        text = (FIXTURES / "failing" / "results.json").read_text()
        self.assertIn('"status": "failed"', text)
        tampered = self.dir / "tampered"
        tampered.mkdir()
        at = text.index('"status": "failed"')
        line = text.count("\n", 0, at) + 1
        column = at - text.rfind("\n", 0, at) + len('"status": "failed", ')
        (tampered / "results.json").write_text(text[:at] + '"status": "failed", "status": "passed"' +
                                               text[at + len('"status": "failed"'):])
        result = run_renderer(str(tampered), "--out", str(self.dir / "site"))
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(f"tampered/results.json:{line}:{column}: duplicate key 'status'", result.stderr)
        self.assertFalse((self.dir / "site").exists())
        gate = self.dir / "gate.json"
        gate.write_text('{"releasable": false, "checks": [],\n "requirements": [], "releasable": true}')
        result = run_renderer(str(FIXTURES / "passing"), "--out", str(self.dir / "site"), "--gate", str(gate))
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("gate.json:2:22: duplicate key 'releasable'", result.stderr)

    def test_site_is_replaced_whole_and_kept_on_failure(self) -> None:
        site = self.dir / "site"
        self.assertEqual(run_renderer(str(FIXTURES / "passing"), "--out", str(site), reuse_figures=True).returncode, 0)
        # A page of a requirement no longer run goes with the old site; a file the renderer does
        # not write (a user's notes, a results folder run into the site) is refused, not deleted.
        (site / "requirements" / "stale.html").write_text("old")
        (site / "notes.txt").write_text("mine")
        refused = run_renderer(str(FIXTURES / "failing"), "--out", str(site), reuse_figures=True)
        self.assertEqual(refused.returncode, 2)
        self.assertIn("notes.txt, which simverify report did not write", refused.stderr)
        self.assertEqual((site / "notes.txt").read_text(), "mine")
        (site / "notes.txt").unlink()
        self.assertEqual(run_renderer(str(FIXTURES / "failing"), "--out", str(site), reuse_figures=True).returncode, 0)
        self.assertFalse((site / "requirements" / "stale.html").exists())
        before = (site / "index.html").read_text()
        self.assertEqual(run_renderer(str(self.dir / "nope"), "--out", str(site), reuse_figures=True).returncode, 2)
        self.assertEqual((site / "index.html").read_text(), before)
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["site"])  # no temp folders left

    def test_sigterm_during_render_leaves_the_old_site_and_no_staging_folder(self) -> None:
        # A cancelled CI job sends SIGTERM: the renderer unwinds, removes its staging folder,
        # and the previous site stays as it was.
        site = self.dir / "site"
        self.assertEqual(run_renderer(str(FIXTURES / "failing"), "--out", str(site), reuse_figures=True).returncode, 0)
        before = (site / "index.html").read_text()
        process = subprocess.Popen([PYTHON, str(REPORTS / "render.py"), str(FIXTURES / "passing"), "--out",
                                    str(site), "--gate", gate_decision(str(FIXTURES / "passing")), "--quiet"],
                                   stderr=subprocess.PIPE, text=True)
        staging = []
        for _ in range(6000):  # up to 60 s on a loaded machine; the staging folder appears first
            staging = [p for p in self.dir.iterdir() if p.name.startswith(".site.tmp-")]
            if staging or process.poll() is not None:
                break
            time.sleep(0.01)
        self.assertTrue(staging, "the renderer never created its staging folder")
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=120)
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["site"])
        if process.returncode == 0:
            # On a loaded machine the render (figures reused) can reach the rename before the
            # signal lands; from there the renderer holds stop signals and the new site is whole.
            self.assertNotEqual((site / "index.html").read_text(), before)
        else:
            self.assertEqual(process.returncode, 128 + signal.SIGTERM, stderr)
            self.assertEqual((site / "index.html").read_text(), before)

    def test_a_stop_signal_to_the_whole_group_ends_the_report_cleanly(self) -> None:
        # Ctrl-C at a terminal, a cancelled CI job or a closed terminal signal the whole process
        # group: simverify, the renderer and its drawing workers. The renderer got the signal
        # twice (simverify forwards it) and hung in the pool's shutdown in about a third of the
        # tries; SIGHUP ended it at once, leaving its staging folder and orphaned workers.
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            site = self.dir / f"site-{sig.name}"
            process = subprocess.Popen([SIMVERIFY, "report", str(FIXTURES / "passing"), "--out", str(site)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                       start_new_session=True)
            drawn = []
            for _ in range(12000):  # up to 120 s on a loaded machine, until a figure is drawn
                drawn = list(self.dir.glob(f".{site.name}.tmp-*/plots/*"))
                if drawn or process.poll() is not None:
                    break
                time.sleep(0.01)
            if not drawn:
                process.wait(timeout=600)
                continue  # the render ended before a figure could be caught: nothing to stop
            os.killpg(process.pid, sig)
            _, stderr = process.communicate(timeout=120)
            self.assertNotIn("Traceback", stderr, sig.name)
            with self.assertRaises(ProcessLookupError, msg=f"{sig.name}: workers left running"):
                for _ in range(500):  # the group's last processes may take a moment to be reaped
                    os.killpg(process.pid, 0)
                    time.sleep(0.01)
            self.assertEqual([p.name for p in self.dir.iterdir() if p.name.startswith(".")], [], sig.name)
            # A signal that lands after the rename leaves the new site, whole.
            if site.exists():
                self.assertTrue((site / render.SITE_MARKER).is_file() and (site / "index.html").is_file())

    def test_out_never_replaces_what_a_report_did_not_write(self) -> None:
        # Replacing SITE deletes it: the results folder, a folder holding it, and any
        # non-empty folder without the site marker are refused (exit 2) and left intact.
        results = self.dir / "out"
        shutil.copytree(FIXTURES / "failing", results)
        for out in (results, self.dir):
            result = run_renderer(str(results), "--out", str(out), reuse_figures=True)
            self.assertEqual(result.returncode, 2, out)
            self.assertIn("must not be the results folder", result.stderr)
        self.assertTrue((results / "results.json").is_file())
        mine = self.dir / "notes"
        mine.mkdir()
        (mine / "thesis.tex").write_text("precious")
        result = run_renderer(str(results), "--out", str(mine), reuse_figures=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("is not a simverify report", result.stderr)
        self.assertEqual((mine / "thesis.tex").read_text(), "precious")
        # A web project's layout (index.html beside static/style.css) is no report without the
        # marker: it was taken for a site from before the marker, and replaced.
        (mine / "index.html").write_text("<p>mine</p>")
        (mine / "static").mkdir()
        (mine / "static" / "style.css").write_text("body {}")
        result = run_renderer(str(results), "--out", str(mine), reuse_figures=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("is not a simverify report", result.stderr)
        self.assertEqual((mine / "thesis.tex").read_text(), "precious")
        # Nor is a marker that is a link to some file (the renderer writes a regular file).
        (mine / render.SITE_MARKER).symlink_to(mine / "thesis.tex")
        result = run_renderer(str(results), "--out", str(mine), reuse_figures=True)
        self.assertEqual(result.returncode, 2)
        self.assertEqual((mine / "thesis.tex").read_text(), "precious")
        (mine / render.SITE_MARKER).unlink()
        afile = self.dir / "file.html"
        afile.write_text("x")
        self.assertIn("is not a folder", run_renderer(str(results), "--out", str(afile), reuse_figures=True).stderr)
        empty = self.dir / "empty"
        empty.mkdir()
        self.assertEqual(run_renderer(str(results), "--out", str(empty), reuse_figures=True).returncode, 0)
        self.assertTrue((empty / render.SITE_MARKER).is_file())
        # A link to a folder is followed and stays a link; a link to nothing is refused, and
        # nothing is made where it points.
        link = self.dir / "site-link"
        link.symlink_to(empty)
        self.assertEqual(run_renderer(str(results), "--out", str(link), reuse_figures=True).returncode, 0)
        self.assertTrue(link.is_symlink())
        dangling = self.dir / "dangling"
        dangling.symlink_to(self.dir / "nowhere")
        result = run_renderer(str(results), "--out", str(dangling), reuse_figures=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("a symbolic link to nothing", result.stderr)
        self.assertFalse((self.dir / "nowhere").exists())
        self.assertEqual(sorted(p.name for p in self.dir.iterdir() if p.name.startswith(".")), [])

    def test_aggregated_points_are_plotted_from_their_recorded_value(self) -> None:
        # A derived measure (rms(y.a)) has no entry in "measures": the per-point number the
        # statistic aggregates is "value". Mean of 1, 2, 3 is 2; the t-interval with n = 3,
        # s = 1 is 2 +- t(0.975, 2) / sqrt(3) = 2 +- 2.4841 (t table: 4.3027).
        results = self.dir / "agg"
        results.mkdir()
        points = [{"index": i, "condition": {"seed": i + 1}, "measures": {"steps": 10}, "value": float(i + 1),
                   "quality": None, "passed": True, "error": None} for i in range(3)]
        doc = {"format": "simverify.results/1", "releasable": True, "complete": True, "summary": {},
               "requirements": [{"id": "AGG", "title": "t", "level": "unit", "component": "simulate",
                                 "status": "passed", "threshold": "<= 3", "worst": 2.0, "measure": "rms(y.a)",
                                 "aggregate": {"over": ["seed"], "statistic": "mean"}, "grid_size": 3,
                                 "points": points, "groups": [{"points": [0, 1, 2], "quality": 2.0, "passed": True,
                                                               "error": None}]}]}
        (results / "results.json").write_text(json.dumps(doc))
        report = load_report(results, Path(gate_decision(str(results))), {"commit": "", "compiler": "", "date": ""})
        figures = plots.requirement_figures(report.requirements[0], report, self.dir)
        row = figures["statistics"]["rows"][0]
        self.assertEqual(row["n"], 3)
        self.assertAlmostEqual(row["mean"], 2.0)
        self.assertAlmostEqual(row["ci_high"] - row["mean"], 4.302653 / 3 ** 0.5, places=5)
        self.assertEqual(report.requirements[0].worst_points(1)[0].index, 2)  # largest of <= first

    def test_malformed_requirement_fields_exit_2_naming_the_requirement(self) -> None:
        bad = self.dir / "bad"
        bad.mkdir()
        doc = {"format": "simverify.results/1", "requirements": [
            {"id": "A", "status": "passed", "points": []},
            {"id": "B", "status": "passed", "points": [], "groups": ["not an object"]}]}
        (bad / "results.json").write_text(json.dumps(doc))
        result = run_renderer(str(bad), "--out", str(self.dir / "site"))
        self.assertEqual(result.returncode, 2)
        self.assertIn("requirements[1]", result.stderr)
        self.assertFalse((self.dir / "site").exists())

    def test_cobertura_coverage_is_read(self) -> None:
        xml = self.dir / "coverage.xml"
        xml.write_text('<?xml version="1.0"?>\n<coverage lines-covered="3" lines-valid="4" '
                       'branches-covered="1" branches-valid="8"><packages/></coverage>\n')
        result = run_renderer(str(FIXTURES / "passing"), "--out", str(self.dir / "site"), "--coverage", str(xml),
                              reuse_figures=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        index = (self.dir / "site" / "index.html").read_text()
        self.assertIn("75.0%", index)
        self.assertIn("12.5%", index)
        # The gate reads the coverage file (simverify's one reader); the renderer only shows its figures.
        xml.write_text("<coverage lines-covered=")
        result = subprocess.run([SIMVERIFY, "report", str(FIXTURES / "passing"), "--coverage", str(xml), "--out",
                                 str(self.dir / "site2")], capture_output=True, text=True, timeout=600)
        self.assertEqual(result.returncode, 2)
        self.assertIn("coverage.xml: not valid XML at byte", result.stderr)
        self.assertFalse((self.dir / "site2").exists())

    def test_coverage_is_shown_as_the_gate_shows_it(self) -> None:
        # 79996 of 100000 under a bar of 80 %: the gate writes "79.996%", which the report shows
        # rather than rounding it up to the bar ("80.0%").
        gate = Path(gate_decision(str(FIXTURES / "passing")))
        decision = json.loads(gate.read_text())
        decision["coverage"] = {"file": "summary.json", "branch": None, "line": {
            "covered": 79996, "total": 100000, "percent": 79.996, "text": "79.996%"}}
        gate.write_text(json.dumps(decision))
        result = run_renderer(str(FIXTURES / "passing"), "--out", str(self.dir / "site"), "--gate", str(gate),
                              reuse_figures=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        index = (self.dir / "site" / "index.html").read_text()
        self.assertIn("79.996%", index)
        self.assertNotIn("80.0%", index)

    def test_svg_output_is_reproducible(self) -> None:
        for name in ("a", "b"):
            self.assertEqual(run_renderer(str(FIXTURES / "passing"), "--out", str(self.dir / name)).returncode, 0)
        for svg in sorted((self.dir / "a" / "plots").iterdir()):
            self.assertEqual(svg.read_bytes(), (self.dir / "b" / "plots" / svg.name).read_bytes(), svg.name)
        self.assertEqual((self.dir / "a" / "index.html").read_text(), (self.dir / "b" / "index.html").read_text())

    def test_coverage_html_is_copied_and_linked(self) -> None:
        html_dir = self.dir / "coverage" / "html"
        html_dir.mkdir(parents=True)
        (html_dir / "index.html").write_text("<html>lcov</html>")
        summary = self.dir / "coverage" / "summary.json"
        summary.write_text((FIXTURES / "coverage-summary.json").read_text())
        result = run_renderer(str(FIXTURES / "passing"), "--out", str(self.dir / "site"), "--coverage", str(summary),
                              reuse_figures=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue((self.dir / "site" / "coverage" / "index.html").is_file())
        self.assertIn('href="coverage/index.html"', (self.dir / "site" / "index.html").read_text())

    def test_coverage_html_copies_no_link_and_reads_no_fifo(self) -> None:
        html_dir = self.dir / "coverage" / "html"
        (html_dir / "sub").mkdir(parents=True)
        (html_dir / "index.html").write_text("<html>lcov</html>")
        (html_dir / "sub" / "page.html").write_text("<html>page</html>")
        secret = self.dir / "secret.txt"
        secret.write_text("private key")
        (html_dir / "leak.html").symlink_to(secret)
        (html_dir / "linked").symlink_to(self.dir, target_is_directory=True)
        os.mkfifo(html_dir / "pipe.html")
        summary = self.dir / "coverage" / "summary.json"
        summary.write_text((FIXTURES / "coverage-summary.json").read_text())
        result = run_renderer(str(FIXTURES / "passing"), "--out", str(self.dir / "site"), "--coverage", str(summary),
                              reuse_figures=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        copied = sorted(str(p.relative_to(self.dir / "site" / "coverage"))
                        for p in (self.dir / "site" / "coverage").rglob("*"))
        self.assertEqual(copied, ["index.html", "sub", "sub/page.html"])

    def test_coverage_html_that_is_a_link_or_too_large_is_not_published(self) -> None:
        # html/ beside the coverage file linked to another folder published that folder's files.
        private = self.dir / "private"
        private.mkdir()
        (private / "index.html").write_text("<html>not coverage</html>")
        (private / "secret.txt").write_text("TOP SECRET")
        (self.dir / "coverage").mkdir()
        (self.dir / "coverage" / "html").symlink_to(private, target_is_directory=True)
        summary = self.dir / "coverage" / "summary.json"
        summary.write_text((FIXTURES / "coverage-summary.json").read_text())
        result = run_renderer(str(FIXTURES / "passing"), "--out", str(self.dir / "site"), "--coverage", str(summary),
                              reuse_figures=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertFalse((self.dir / "site" / "coverage").exists())
        # More than the limit in all (a huge sparse file would fill the disk): refused, exit 2.
        (private / "big.html").write_bytes(b"x" * 2048)
        with unittest.mock.patch.object(render, "MAX_COVERAGE_HTML_BYTES", 1024):
            result = run_renderer(str(FIXTURES / "passing"), "--out", str(self.dir / "site2"), "--coverage-html",
                                  str(private), reuse_figures=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("the HTML coverage report holds more than", result.stderr)
        self.assertFalse((self.dir / "site2").exists())

    def test_bidi_controls_in_what_pages_show_are_made_visible(self) -> None:
        # A right-to-left override in a title, reason or commit reordered the rest of its line,
        # simverify's own words included; every printed value shows them as code points.
        env = render.make_environment()
        self.assertEqual(env.from_string("{{ x }} 0 newly failing").render(x="ab\u202ec<"),
                         "ab[U+202E]c&lt; 0 newly failing")
        self.assertEqual(env.from_string("{{ x }}").render(x="\u2067\u05d0\u2069"), "[U+2067]\u05d0[U+2069]")


class Units(unittest.TestCase):
    """Numbers carry the units the model declares: the runner writes them to results.json and
    the pages and plot axes show them (docs/reports.md)."""

    PACK = """requirements:
  - id: UNITS-OSCILLATOR
    title: the oscillator's final position stays small
    level: integration
    component: simulate
    conditions:
      model: harmonic_oscillator
      method: ode45
      tf: 1.0
      p.omega: [3.0, 6.0]
    quality: {measure: max_abs(y.x), threshold: "<= 0.5"}
"""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        pack = Path(cls.tmp.name) / "units.yaml"
        pack.write_text(cls.PACK)
        cls.results = Path(cls.tmp.name) / "results"
        run = subprocess.run([SIMVERIFY, "run", str(pack), "--out", str(cls.results), "--no-progress"],
                             capture_output=True, text=True, timeout=600)
        if run.returncode not in (0, 1):
            raise AssertionError(f"simverify run: exit {run.returncode}: {run.stderr}{run.stdout}")
        cls.site = Path(cls.tmp.name) / "site"
        result = run_renderer(str(cls.results), "--out", str(cls.site))
        if result.returncode != 0:
            raise AssertionError(f"render failed: {result.stderr}")

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_results_carry_the_models_units(self) -> None:
        units = json.loads((self.results / "results.json").read_text())["requirements"][0]["units"]
        self.assertEqual(units["p.omega"], "rad/s")
        self.assertEqual(units["max_abs(y.x)"], "m")  # max_abs keeps the unit of y.x
        self.assertEqual(units["x.v"], "m/s")
        self.assertEqual(units["tf"], "s")

    def test_tables_and_plot_axes_show_them(self) -> None:
        page = (self.site / "requirements" / f"{slug_of('UNITS-OSCILLATOR')}.html").read_text()
        self.assertRegex(page, r"<td><code>p\.omega</code></td><td>rad/s</td>")
        self.assertRegex(page, r"<dt>Threshold</dt><dd><code>&lt;= 0\.5</code> <span class=\"unit\">m</span>")
        index = (self.site / "index.html").read_text()
        self.assertIn('<code>&lt;= 0.5</code> <span class="unit">m</span>', index)
        grid = (self.site / "plots" / "UNITS-OSCILLATOR-grid.svg").read_text()
        self.assertIn("<!-- p.omega [rad/s] -->", grid)  # matplotlib keeps each text as a comment
        self.assertIn("<!-- quality (max_abs(y.x) [m]) -->", grid)
        worst = (self.site / "plots" / "UNITS-OSCILLATOR-point0.svg").read_text()
        self.assertIn("<!-- t [s] -->", worst)
        self.assertIn("<!-- x [m] -->", worst)


class Diagrams(unittest.TestCase):
    """A requirement that runs a block diagram shows it as an SVG drawn by Graphviz `dot`;
    without `dot` on PATH the page still renders, saying so and linking the DOT source."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.results = Path(cls.tmp.name) / "results"
        pack = HERE.parents[1] / "requirements" / "integration" / "diagrams" / "list_parameters.yaml"
        run = subprocess.run([SIMVERIFY, "run", str(pack), "--out", str(cls.results), "--no-progress"],
                             capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            raise AssertionError(f"simverify run: exit {run.returncode}: {run.stderr}{run.stdout}")

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def render(self, name: str, path: str) -> tuple[str, Path]:
        site = Path(self.tmp.name) / name
        saved = os.environ["PATH"]
        os.environ["PATH"] = path
        try:
            result = run_renderer(str(self.results), "--out", str(site))
        finally:
            os.environ["PATH"] = saved
        self.assertEqual(result.returncode, 0, result.stderr)
        page = (site / "requirements" / f"{slug_of('DIAGRAM-MATRIX-PARAMETER')}.html").read_text()
        return page, site

    def test_the_runner_writes_the_diagram_as_dot(self) -> None:
        doc = json.loads((self.results / "results.json").read_text())
        figures = doc["requirements"][0]["figures"]
        self.assertEqual(figures, [{"title": "models/oscillator_state_space.yaml",
                                    "file": "figures/DIAGRAM-MATRIX-PARAMETER/0.gv"}])
        dot = (self.results / figures[0]["file"]).read_text()
        self.assertTrue(dot.startswith('digraph "oscillator_state_space" {'), dot)
        self.assertIn('"zero" -> "osc"', dot)
        # Name and type on two lines: DOT's "\n" escape, not an escaped backslash.
        self.assertIn('"osc" [label="osc\\nstate_space", style=rounded]', dot)

    def test_merged_shards_keep_the_figures(self) -> None:
        pack = HERE.parents[1] / "requirements" / "integration" / "diagrams" / "list_parameters.yaml"
        shards = []
        for i in (1, 2):
            shard = Path(self.tmp.name) / f"shard{i}"
            subprocess.run([SIMVERIFY, "run", str(pack), "--shard", f"{i}/2", "--out", str(shard), "--no-progress"],
                           capture_output=True, check=True, timeout=600)
            shards.append(str(shard))
        merged = Path(self.tmp.name) / "merged"
        subprocess.run([SIMVERIFY, "merge", *shards, "--out", str(merged)], capture_output=True, check=True, timeout=600)
        doc = json.loads((merged / "results.json").read_text())
        self.assertEqual(doc["requirements"][0]["figures"][0]["file"], "figures/DIAGRAM-MATRIX-PARAMETER/0.gv")
        self.assertEqual((merged / "figures" / "DIAGRAM-MATRIX-PARAMETER" / "0.gv").read_bytes(),
                         (self.results / "figures" / "DIAGRAM-MATRIX-PARAMETER" / "0.gv").read_bytes())

    def test_with_dot_the_page_embeds_the_svg(self) -> None:
        dot = shutil.which("dot")
        self.assertIsNotNone(dot, "Graphviz is in ci/packages/core.txt: install it (ci/install-deps)")
        page, site = self.render("with-dot", str(Path(dot).parent))
        svgs = re.findall(r'<img src="\.\./(plots/[^"]+-diagram0\.svg)" alt="block diagram '
                          r'models/oscillator_state_space\.yaml">', page)
        self.assertEqual(len(svgs), 1, page)
        svg = (site / svgs[0]).read_text()
        self.assertIn("<svg", svg)
        self.assertIn("osc", svg)  # the block's label, laid out by dot
        self.assertNotIn("Graphviz is not installed", page)

    def test_without_dot_the_page_links_the_dot_source(self) -> None:
        empty = Path(self.tmp.name) / "no-tools"
        empty.mkdir(exist_ok=True)
        page, site = self.render("without-dot", str(empty))
        self.assertIn("Graphviz is not installed (no dot on PATH)", page)
        self.assertNotIn("-diagram0.svg", page)
        links = re.findall(r'<a href="\.\./(plots/[^"]+-diagram0\.gv)">', page)
        self.assertEqual(len(links), 1, page)
        self.assertEqual((site / links[0]).read_bytes(),
                         (self.results / "figures" / "DIAGRAM-MATRIX-PARAMETER" / "0.gv").read_bytes())

    def test_a_figure_outside_figures_is_refused(self) -> None:
        bad = Path(self.tmp.name) / "bad"
        shutil.copytree(self.results, bad)
        doc = json.loads((bad / "results.json").read_text())
        doc["requirements"][0]["figures"] = [{"title": "x", "file": "figures/../../etc/passwd"}]
        (bad / "results.json").write_text(json.dumps(doc))
        result = run_renderer(str(bad), "--out", str(Path(self.tmp.name) / "bad-site"))
        self.assertEqual(result.returncode, 2)
        self.assertIn("is not under figures/", result.stderr)

    def tampered(self, name: str, make) -> tuple[str, Path]:
        """The results with the figure file replaced by `make(path)`, rendered with dot."""
        results = Path(self.tmp.name) / name
        shutil.copytree(self.results, results)
        figure = results / "figures" / "DIAGRAM-MATRIX-PARAMETER" / "0.gv"
        figure.unlink()
        make(figure)
        site = Path(self.tmp.name) / f"{name}-site"
        result = run_renderer(str(results), "--out", str(site))
        self.assertEqual(result.returncode, 0, result.stderr)
        return (site / "requirements" / f"{slug_of('DIAGRAM-MATRIX-PARAMETER')}.html").read_text(), site

    def test_a_figure_linked_out_of_the_results_is_not_copied(self) -> None:
        secret = Path(self.tmp.name) / "secret.gv"
        secret.write_text('digraph { "private key" }')
        page, site = self.tampered("linked", lambda figure: figure.symlink_to(secret))
        self.assertIn("must be a regular UTF-8 file inside the results folder", page)
        copied = [f for f in site.rglob("*") if f.is_file() and "private key" in f.read_text(errors="replace")]
        self.assertEqual(copied, [])

    def test_a_fifo_as_results_json_does_not_hang_the_renderer(self) -> None:
        results = Path(self.tmp.name) / "fifo-results"
        shutil.copytree(self.results, results)
        gate = gate_decision(str(results))
        (results / "results.json").unlink()
        os.mkfifo(results / "results.json")
        result = run_renderer(str(results), "--out", str(Path(self.tmp.name) / "fifo-results-site"),
                              "--gate", gate)
        self.assertEqual(result.returncode, 2)
        self.assertIn("results.json: cannot read results (expected a folder written by simverify run): "
                      "not a regular file", result.stderr)

    def test_a_fifo_as_figure_does_not_hang_the_report(self) -> None:
        page, _ = self.tampered("fifo", os.mkfifo)
        self.assertIn("must be a regular UTF-8 file inside the results folder", page)

    def test_links_in_a_hostile_figure_are_removed(self) -> None:
        hostile = ('digraph { a [URL="javascript:alert(1)", target="_top", image="/etc/hostname"]; '
                   'b [href="https://evil.example"]; a -> b [URL="javascript:alert(2)"] }')
        page, site = self.tampered("hostile", lambda figure: figure.write_text(hostile))
        svgs = re.findall(r'<img src="\.\./(plots/[^"]+-diagram0\.svg)"', page)
        self.assertEqual(len(svgs), 1, page)
        svg = (site / svgs[0]).read_text()
        self.assertIn("<svg", svg)
        for needle in ("javascript:", "evil.example", "href=", "/etc/hostname", "_top"):
            self.assertNotIn(needle, svg)


class Baseline(unittest.TestCase):
    """`--diff` (simverify diff --json) and `--history`: newly failing first, trends, sparklines."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        diff = subprocess.run([SIMVERIFY, "diff", str(FIXTURES / "baseline"), str(FIXTURES / "failing"), "--json"],
                              capture_output=True, text=True, timeout=120)
        assert diff.returncode == 1, diff.stderr  # two regressions
        (root / "diff.json").write_text(diff.stdout)
        cls.site = root / "site"
        # Each earlier run as `simverify report --history` compares it with this one.
        history = []
        for earlier in ("baseline", "incomplete"):
            compared = subprocess.run([SIMVERIFY, "diff", str(FIXTURES / earlier), str(FIXTURES / "failing"), "--json"],
                                      capture_output=True, text=True, timeout=120)
            assert compared.returncode in (0, 1), compared.stderr
            history.append(root / f"history-{earlier}.json")
            history[-1].write_text(compared.stdout)
        result = run_renderer(str(FIXTURES / "failing"), "--out", str(cls.site), "--diff", str(root / "diff.json"),
                              "--history", *map(str, history))
        assert result.returncode == 0, result.stderr
        cls.index = (cls.site / "index.html").read_text(encoding="utf-8")

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_banner_names_the_baseline(self) -> None:
        self.assertIn("Compared with <strong>0123456789ab, 2026-11-20 08:00:00 UTC</strong>", self.index)
        self.assertIn('<span class="neg">2 newly failing</span>', self.index)

    def test_newly_failing_requirements_come_first_with_their_trend(self) -> None:
        rows = re.findall(r'<tr class="row-[a-z]+" data-status="([a-z]+)"[^>]*data-change="([a-z]+)"', self.index)
        self.assertEqual([change for _, change in rows][:2], ["regressed", "regressed"])
        self.assertEqual(rows[-1], ("passed", "same"))
        # <= 0.1: worst 0.08 -> 0.5 is margin +0.02 -> -0.4, a fall of 0.42.
        self.assertIn('<span class="trend worse" title="margin in the baseline +0.02">↓ -0.42</span>', self.index)
        self.assertIn("SIM-RETIRED", self.index)  # removed since, listed under the table

    def test_history_draws_a_sparkline_per_requirement(self) -> None:
        # SOLVER-ODE4-ORDER: margins 0.12 (baseline), 0.1 (incomplete), 0.1 (this run).
        self.assertEqual(self.index.count('<svg class="spark"'), 3)
        self.assertIn("<title>margin per run: 0.12 → 0.1 → 0.1</title>", self.index)


class Numbers(unittest.TestCase):
    def test_margin_is_signed_by_relation(self) -> None:
        self.assertAlmostEqual(Threshold.parse(">= 3.9").margin(4.0), 0.1)
        self.assertAlmostEqual(Threshold.parse("<= 1e-3").margin(2e-3), -1e-3)
        self.assertIsNone(Threshold.parse("<= 1").margin(float("nan")))
        self.assertIsNone(Threshold.parse("> 1"))

    def test_slugs_of_distinct_ids_differ(self) -> None:
        self.assertEqual(slug_of("SOLVER-ODE4-ORDER"), "SOLVER-ODE4-ORDER")
        self.assertNotEqual(slug_of("A/B"), slug_of("A_B"))
        self.assertNotIn("/", slug_of("../../etc/passwd"))

    def test_condition_values_read_as_people_write_them(self) -> None:
        from conditions import human
        self.assertEqual(human({"road": {"class": "B", "speed": 20.0}}), "road class B, 20 m/s")
        self.assertEqual(human({"sine": {"amplitude": 0.1, "frequency": 2}, "hold": 0.01}),
                         "sine amplitude 0.1, 2 Hz, held every 0.01 s")
        self.assertEqual(human({"step": {"at": 1, "from": 0, "to": 0.05}}), "step at 1 s from 0 to 0.05")
        self.assertEqual(human({"p.k": {"normal": [1, 0.1]}}), "p.k normal [1, 0.1]")
        self.assertEqual(human([1.0, 0.0]), "[1, 0]")
        # Not a documented signal: every field still shown.
        self.assertEqual(human({"road": {"class": "B", "bumps": 3}}), "road class B, bumps 3")

    def test_worst_points_put_errors_and_violations_first(self) -> None:
        report = load_report(FIXTURES / "failing", Path(gate_decision(str(FIXTURES / "failing"))),
                             {"commit": "", "compiler": "", "date": ""})
        failed = [r for r in report.requirements if r.status == "failed"][0]
        self.assertEqual(failed.worst_points(1)[0].index, 0)  # 0.5 violates <= 0.1
        self.assertFalse(report.releasable)


def visible_text(page: str) -> str:
    """A page's text as a reader sees it: tags removed, entities decoded, spaces collapsed."""
    import html as html_module
    return html_module.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def svg_texts(svg: str) -> list[str]:
    """The texts of a matplotlib SVG (it keeps each as a comment)."""
    import html as html_module
    return [html_module.unescape(t) for t in re.findall(r"<!-- (.*?) -->", svg)]


class ReviewFindings(unittest.TestCase):
    """Requirements a reviewer found hard to read in the report, run by simverify and rendered:
    each test names what a reader must see (docs/reports.md, "Reading a requirement page")."""

    PACK = """requirements:
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
  - id: E-EVT-2D
    title: a missing event over two axes
    level: integration
    component: sensitivity
    conditions:
      model: bouncing_ball
      method: ode45
      x0: [[2.0, 0.0]]
      tf: [1.0, 3.0]
      wrt: [p.e, p.g]
      of: "event_times[2]"
    quality: {measure: derivative, threshold: ">= 0"}
  - id: C-RMS
    title: position follows the reference
    level: integration
    component: simulate
    conditions: {model: harmonic_oscillator, method: ode45, rtol: [1e-8, 1e-4], max_step: 0.01}
    quality:
      measure: y.x
      compare: {reference: {file: data/ref.csv, column: x}, norm: rms}
      threshold: "<= 1e-6"
  - id: T-SHIFT
    title: shifted tube
    level: integration
    component: simulate
    conditions: {model: harmonic_oscillator, method: ode45, rtol: 1e-9, max_step: 0.005}
    quality:
      measure: y.x
      compare:
        reference: {file: data/hos.csv, column: x}
        tube: {abs: 0.01, rel: 0.05, time: 0.01}
      threshold: "<= 0"
  - id: P-WQ
    title: weighted quantile
    level: integration
    component: command
    command: [/usr/bin/python3, -c, "import json, sys; c = json.load(sys.stdin)['conditions']; print(json.dumps({'measures': {'v': c['v']}}))"]
    measures: [v]
    conditions:
      zip: {v: [4.0, 1.0, 3.0, 2.0], w: [0.1, 0.2, 0.3, 0.4]}
    quality:
      measure: v
      aggregate: {over: [v], statistic: weighted_quantile(0.5), weight: w}
      threshold: "<= 2.5"
  - id: P-SCEN
    title: scenario switching
    level: integration
    component: scenario
    conditions:
      model: exponential
      method: ode45
      p.lambda: -1.0
      tf: 2.0
      of: "x_end[0]"
      better: lower
      scenarios: {base: {}, slow: {p.lambda: -0.2}, fast: {p.lambda: -3.0}}
      switching: {wrt: p.lambda, limit: 0.5, tolerance: 1e-6}
    quality:
      measure: worst_case
      threshold: "<= 0.6"
  - id: BB-SENS
    title: bouncing ball event sensitivities
    level: integration
    component: sensitivity
    conditions:
      model: bouncing_ball
      method: ode45
      x0: [[2.0, 0.0]]
      tf: 3.0
      wrt: [p.e, p.g]
      of: ["event_times[0]", "event_times[1]", "event_times[2]"]
      by: [central_difference, forward]
    quality:
      measure: derivative
      threshold: ">= -100"
  - id: G-MEAN
    title: mean per gain
    level: integration
    component: command
    command: [/usr/bin/python3, -c, "import json, sys; c = json.load(sys.stdin)['conditions']; print(json.dumps({'measures': {'y': c['v'] * c['k']}}))"]
    measures: [y]
    conditions: {k: [1.0, 10.0], v: [1.0, 2.0]}
    quality:
      measure: y
      aggregate: {over: [v], statistic: mean}
      threshold: "<= 5"
"""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        (root / "data").mkdir()
        cls.write_data(root / "data")
        pack = root / "findings.yaml"
        pack.write_text(cls.PACK)
        cls.results = root / "results"
        run = subprocess.run([SIMVERIFY, "run", str(pack), "--out", str(cls.results), "--no-progress"],
                             capture_output=True, text=True, timeout=600, cwd=root)
        if run.returncode not in (0, 1):
            raise AssertionError(f"simverify run: exit {run.returncode}: {run.stderr}{run.stdout}")
        cls.doc = json.loads((cls.results / "results.json").read_text())
        cls.site = root / "site"
        result = run_renderer(str(cls.results), "--out", str(cls.site))
        if result.returncode != 0:
            raise AssertionError(f"render failed: {result.stderr}")

    @classmethod
    def write_data(cls, folder: Path) -> None:
        import math as m
        # cos(2 pi t), the oscillator's exact position; and the same 0.02 s late.
        (folder / "ref.csv").write_text("t,x\n" + "".join(
            f"{t},{m.cos(2 * m.pi * t)}\n" for t in (k / 100 for k in range(1001))))
        (folder / "hos.csv").write_text("t,x\n" + "".join(
            f"{t},{m.cos(2 * m.pi * (t - 0.02))}\n" for t in (k / 50 for k in range(501))))

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def page(self, requirement_id: str) -> str:
        return (self.site / "requirements" / f"{slug_of(requirement_id)}.html").read_text()

    def plot(self, name: str) -> list[str]:
        return svg_texts((self.site / "plots" / name).read_text())

    def index_row(self, requirement_id: str) -> str:
        index = (self.site / "index.html").read_text()
        start = index.index(f"requirements/{slug_of(requirement_id)}.html")
        return index[index.rindex("<tr", 0, start):index.index("</tr>", start)]

    def test_an_error_requirement_has_no_worst_nor_margin(self) -> None:
        # One point errs, the other passes with 3.32: 3.32 is not the requirement's worst, and
        # a green +3.32 would rank it as safe.
        row = self.index_row("E-EVT")
        self.assertNotIn("+3.32", row)
        self.assertIn('data-value="-Infinity"', row)  # sorts with the most unsafe
        text = visible_text(self.page("E-EVT"))
        self.assertRegex(text, r"Worst – error Margin –")
        # The errored point (tf = 1) is on the grid plot, marked and named in the legend.
        grid = self.plot("E-EVT-grid.svg")
        self.assertIn("error (not evaluated)", grid)
        self.assertIn("1", grid)  # the x axis reaches tf = 1
        # On a heatmap: the errored cells (tf = 1) are labelled "error", hatched, in the legend.
        heatmap = self.plot("E-EVT-2D-grid.svg")
        self.assertEqual(heatmap.count("error"), 2)
        self.assertIn("error (not evaluated)", heatmap)
        # Whether results.json records a worst for it or not (null, absent).
        for worst in (None, "absent"):
            with tempfile.TemporaryDirectory() as tmp:
                results = Path(tmp) / "results"
                shutil.copytree(self.results, results)
                doc = copy.deepcopy(self.doc)
                e = next(r for r in doc["requirements"] if r["id"] == "E-EVT")
                if worst == "absent":
                    del e["worst"]
                else:
                    e["worst"] = None
                (results / "results.json").write_text(json.dumps(doc))
                result = run_renderer(str(results), "--out", str(Path(tmp) / "site"), reuse_figures=True)
                self.assertEqual(result.returncode, 0, result.stderr)
                page = (Path(tmp) / "site" / "requirements" / "E-EVT.html").read_text()
                self.assertRegex(visible_text(page), r"Worst – error Margin –")

    def test_a_comparison_says_what_it_compares_with(self) -> None:
        # "THRESHOLD <= 1e-06 m" is about the distance to the reference, not the position.
        text = visible_text(self.page("C-RMS"))
        self.assertRegex(text, r"Measure distance of y\.x to data/ref\.csv, column x \(norm rms ?\), in m")
        self.assertIn("norm rms", visible_text(self.index_row("C-RMS")))
        self.assertIn("rms distance to reference of y.x [m]", self.plot("C-RMS-grid.svg"))  # the y axis
        text = visible_text(self.page("T-SHIFT"))
        self.assertRegex(text, r"Measure largest violation by y\.x of the tolerance tube \(abs 0\.01, rel 0\.05, "
                               r"time 0\.01 s\) around data/hos\.csv, column x ?, in m")

    def test_a_failing_tube_says_where_it_fails(self) -> None:
        # The reference is cos(2 pi (t - 0.02)) sampled every 0.02 s; the band at t is the
        # envelope over the samples within +-0.01 s. Computed independently (a direct loop over
        # the series, as the probe that found this did): the worst violation 0.113934 is at
        # t = 0.265 s, and the recorded quality (the C++ compare) agrees.
        recorded = next(r for r in self.doc["requirements"] if r["id"] == "T-SHIFT")["points"][0]["quality"]
        self.assertAlmostEqual(recorded, 0.113934, places=6)
        text = visible_text(self.page("T-SHIFT"))
        self.assertRegex(text, r"Worst violation of the tube 0\.1139 m at t = 0\.265 s ?: measured -0\.09411, "
                               r"band \[0\.01983, 0\.07593\]")
        plot = self.plot("T-SHIFT-point0.svg")
        self.assertIn("y.x − reference", plot)  # the difference, where the violation is visible
        self.assertIn("worst violation 0.1139 at t = 0.265", plot)
        # A failing rms comparison: the difference over time and the norm recomputed.
        text = visible_text(self.page("C-RMS"))
        rms = next(r for r in self.doc["requirements"] if r["id"] == "C-RMS")["points"][1]["quality"]
        self.assertIn(f"rms of the difference {render.format_number(rms)} m", text)
        self.assertIn("y.x − reference", self.plot("C-RMS-point1.svg"))

    def test_a_weight_is_not_a_grouping(self) -> None:
        # One group of four weighted cases: "all points", not "w=0.1" (the first case's weight),
        # and the grid plot draws them as one series, not one per weight value.
        page = self.page("P-WQ")
        self.assertNotIn("w=0.", page)
        self.assertRegex(visible_text(page), r"Groups Group Points Quality Margin Status all points 4 2 \+0\.5 passed")
        self.assertRegex(visible_text(page), r"weighted_quantile\(0\.5\) over v, weighted by w")
        svg = (self.site / "plots" / "P-WQ-grid.svg").read_text()
        self.assertFalse([t for t in svg_texts(svg) if t.startswith("w=")])
        # Red means fails: no passing series is drawn in matplotlib's red (#d62728) or ours.
        self.assertNotIn("#d62728", svg)
        self.assertNotIn("#dc2626", svg)

    def test_a_scenario_study_names_its_scenarios(self) -> None:
        # x(2) = exp(2 lambda): base (lambda -1) 0.135, slow (-0.2) 0.670 the worst, fast (-3)
        # 0.0025 the best. The page names them; it does not show 0-based indices.
        point = next(r for r in self.doc["requirements"] if r["id"] == "P-SCEN")["points"][0]
        values = point["measures"]["scenario_values"]
        self.assertAlmostEqual(values[1], math.exp(-0.4), delta=1e-3)  # ode45 at default tolerances
        num = render.format_number
        text = visible_text(self.page("P-SCEN"))
        self.assertIn(f"Scenarios Scenario Overrides x_end[0] Case base the conditions as given {num(values[0])} base "
                      f"slow p.lambda = -0.2 {num(values[1])} worst fast p.lambda = -3 {num(values[2])} best", text)
        self.assertIn("scenarios base: the conditions as given; slow: p.lambda = -0.2; fast: p.lambda = -3", text)
        self.assertIn(f"scenario_values base {num(values[0])}, slow {num(values[1])}, fast {num(values[2])}", text)
        self.assertIn("worst_scenario slow", text)
        self.assertIn("best_scenario fast", text)
        self.assertRegex(text, r"in scenario slow")
        # The reason (console, results.json, the page's banner) names the scenario too.
        reason = next(r for r in self.doc["requirements"] if r["id"] == "P-SCEN")["reason"]
        self.assertIn("at the only grid point, scenario slow (threshold <= 0.6)", reason)

    def test_category_labels_stay_with_three_category_axes(self) -> None:
        # wrt (series) x of (the x axis) x by (panels): each panel names the three `of` values.
        texts = self.plot("BB-SENS-grid.svg")
        for of in ("event_times[0]", "event_times[1]", "event_times[2]"):
            self.assertEqual(texts.count(of), 2, of)  # one tick label in each of the two panels
        self.assertIn("by=forward", texts)
        self.assertIn("wrt=p.g", texts)

    def test_points_of_a_failing_group_show_as_failed(self) -> None:
        # Group k=1 has mean 1.5 (passes <= 5), group k=10 mean 15 (fails): its points failed
        # "in a failing group", whether results.json records them as passed (as older runners
        # did) or as not passed without an error of their own.
        def chips(page: str) -> dict[str, str]:
            rows = re.findall(r'<tr id="point-\d+">.*?</tr>', page, re.S)
            return {re.search(r"k:</span> <span class=\"v\">([^<]*)<", row).group(1) + "/" +
                    re.search(r"v:</span> <span class=\"v\">([^<]*)<", row).group(1):
                    visible_text(re.search(r'<span class="chip.*?</td>', row, re.S).group(0)).strip() for row in rows}

        expected = {"1/1": "passed", "1/2": "passed", "10/1": "failed in a failing group",
                    "10/2": "failed in a failing group"}
        self.assertEqual(chips(self.page("G-MEAN")), expected)
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            shutil.copytree(self.results, results)
            doc = copy.deepcopy(self.doc)
            g = next(r for r in doc["requirements"] if r["id"] == "G-MEAN")
            failing = {i for group in g["groups"] if not group["passed"] for i in group["points"]}
            for point in g["points"]:
                point["passed"] = point["index"] not in failing
            (results / "results.json").write_text(json.dumps(doc))
            result = run_renderer(str(results), "--out", str(Path(tmp) / "site"), reuse_figures=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            page = (Path(tmp) / "site" / "requirements" / "G-MEAN.html").read_text()
            self.assertEqual(chips(page), expected)


if __name__ == "__main__":
    unittest.main()
