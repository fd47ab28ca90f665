"""Signals to `simverify report` end its renderer (the Python child) too, and nothing is left
behind: no file in the temporary folder (TMPDIR is a private one here, so anything written
there is seen), no staging folder beside the site, no half site. SIGTERM and SIGHUP are sent
to simverify alone, as `kill PID` or a cancelled CI job does; SIGINT likewise (a terminal's
Ctrl-C would reach both processes, which is the easier case)."""
import os
import signal
import subprocess
import time
import unittest
from pathlib import Path

from support import SIMVERIFY, HostileCase, simverify

PACK = """\
requirements:
  - id: SIGNAL-REPORT
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode1
      h: {logspace: [-3, -1, 8]}
      tf: 1.0
    quality:
      measure: error_end
      threshold: "<= 0.5"
"""

# A guard against a hang, not a measurement: each wait ends as soon as its condition holds.
PATIENCE = 120.0


def children(pid):
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except (FileNotFoundError, ProcessLookupError):  # gone between listing and reading
        return []
    return [int(c) for c in text.split()]


def alive(pid):
    """Running (a zombie has finished: it waits only for its parent to read its status)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def cmdline(pid):
    """A process's command line; empty once it has gone (a short-lived child can end between
    listing the children and reading this)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except (FileNotFoundError, ProcessLookupError):
        return b""


def wait_for(condition):
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("gave up waiting")
        time.sleep(0.01)


class SignalsEndTheRenderer(HostileCase):
    def setUp(self):
        super().setUp()
        pack = self.dir / "pack.yaml"
        pack.write_text(PACK)
        self.results = self.dir / "out"
        run = simverify("run", pack, "--out", self.results, "--no-progress",
                        "--series", "all")
        self.assertEqual(run.rc, 0, run)
        self.tmp = self.dir / "tmp"
        self.tmp.mkdir()
        self.home = self.dir / "home"  # matplotlib's cache, outside TMPDIR and the user's
        self.home.mkdir()

    def start_report(self, site):
        env = dict(os.environ, TMPDIR=str(self.tmp), HOME=str(self.home),
                   MPLCONFIGDIR=str(self.home / "mpl"))
        return subprocess.Popen([SIMVERIFY, "report", str(self.results), "--out", str(site)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)

    def interrupt_mid_render(self, sig):
        site = self.dir / f"site-{sig.name}"
        report = self.start_report(site)
        # The renderer is running once simverify has a child whose program is Python.
        renderer = []

        def python_started():
            renderer[:] = [c for c in children(report.pid) if b"render.py" in cmdline(c)]
            return bool(renderer) or report.poll() is not None
        wait_for(python_started)
        self.assertIsNone(report.poll(), "the report ended before the signal could be sent")
        report.send_signal(sig)
        _, err = report.communicate(timeout=PATIENCE)
        # simverify ends by the signal itself, after the renderer.
        self.assertEqual(report.returncode, -sig, err)
        wait_for(lambda: not alive(renderer[0]))
        self.assertEqual(sorted(p.name for p in self.tmp.iterdir()), [],
                         "files left in TMPDIR")
        if b"interrupted after the report was written" in err:
            # On a loaded machine the render can finish before the signal lands: then the site
            # is whole, and said so.
            self.assertTrue((site / "index.html").is_file(), err)
        else:
            self.assertIn(b"interrupted; no report written", err)
            self.assertFalse(site.exists(), "a site from an interrupted render")
        leftovers = [p.name for p in self.dir.iterdir() if p.name.startswith(".site-")]
        self.assertEqual(leftovers, [], "staging folders left beside the site")

    def test_sigterm(self):
        self.interrupt_mid_render(signal.SIGTERM)

    def test_sigint(self):
        self.interrupt_mid_render(signal.SIGINT)

    def test_sighup(self):
        self.interrupt_mid_render(signal.SIGHUP)

    def test_a_signal_after_the_site_is_in_place_keeps_it_and_says_so(self):
        # A stand-in renderer puts a site in place, then the stop signal reaches simverify
        # (as when the render finishes just before a late Ctrl-C): the site stays, simverify
        # says the report was written and still ends by the signal.
        fake = self.dir / "fake-python"
        fake.write_text("#!/bin/sh\n"
                        "# stands in for python3: $1 render.py, $2 results, $3 --out, $4 site\n"
                        "trap '' INT TERM\n"
                        "mkdir -p \"$4\" && echo whole > \"$4/index.html\"\n"
                        "kill -INT $PPID\n"
                        "sleep 0.5\n")
        fake.chmod(0o755)
        site = self.dir / "site-late"
        env = dict(os.environ, TMPDIR=str(self.tmp), SIMVERIFY_PYTHON=str(fake))
        report = subprocess.run([SIMVERIFY, "report", str(self.results), "--out", str(site)],
                                capture_output=True, env=env, timeout=PATIENCE)
        self.assertEqual(report.returncode, -signal.SIGINT, report.stderr)
        self.assertIn(b"interrupted after the report was written", report.stderr)
        self.assertEqual((site / "index.html").read_text(), "whole\n")

    def test_a_finished_report_leaves_nothing_in_tmpdir(self):
        site = self.dir / "site"
        report = self.start_report(site)
        out, err = report.communicate(timeout=PATIENCE)
        self.assertEqual(report.returncode, 0, err)
        self.assertTrue((site / "index.html").is_file())
        self.assertEqual(sorted(p.name for p in self.tmp.iterdir()), [])


class FolderNamedLikeAnOption(HostileCase):
    """A results folder named `-h` (or `--help`) is a folder after `--`, as for any POSIX
    command; `./-h` names it too. Before `--`, `-h` asks for the command's help."""

    def setUp(self):
        super().setUp()
        pack = self.dir / "pack.yaml"
        pack.write_text(PACK)
        for name in ("-h", "--help"):
            self.assertEqual(simverify("run", pack, "--out", f"./{name}", "--no-progress",
                                       cwd=self.dir).rc, 0)

    def test_after_double_dash(self):
        for name in ("-h", "--help"):
            self.expect(simverify("gate", "--", name, cwd=self.dir), 0, "RELEASABLE",
                        stream="out")
            self.expect(simverify("report", "--out", "site", "--", name, cwd=self.dir), 0,
                        "report:", stream="out")
            self.assertTrue((self.dir / "site" / "index.html").is_file())
            self.expect(simverify("diff", "--", name, name, cwd=self.dir), 0, stream="out")

    def test_before_double_dash_it_is_help(self):
        self.expect(simverify("gate", "-h", cwd=self.dir), 0, "usage: simverify gate",
                    stream="out")

    def test_an_option_value_is_never_help(self):
        # getopt's rule: an option that takes a value takes the next argument, whatever it
        # looks like, so `--out -h` writes into the folder `-h`.
        run_dir = self.dir / "again"
        run_dir.mkdir()
        self.expect(simverify("run", self.dir / "pack.yaml", "--out", "-h", "--no-progress",
                              cwd=run_dir), 0, stream="out")
        self.assertTrue((run_dir / "-h" / "results.json").is_file())
        self.expect(simverify("report", "--out", "--help", "--", "-h", cwd=run_dir), 0,
                    "report:", stream="out")
        self.assertTrue((run_dir / "--help" / "index.html").is_file())
        # The project file `-h` is read (a folder: refused by name), not taken for help.
        self.expect(simverify("gate", "./-h", "--config", "-h", cwd=run_dir), 2,
                    "-h:1:1: error: cannot read the project file: it is a folder")


if __name__ == "__main__":
    unittest.main()
