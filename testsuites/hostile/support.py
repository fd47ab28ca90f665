"""Helpers of the hostile tests: run the simverify executable, write requirement files."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

SIMVERIFY = os.environ.get("SIMVERIFY", "simverify")


class Run:
    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def __repr__(self):
        return f"exit {self.rc}\nstdout:\n{self.out}\nstderr:\n{self.err}"


def simverify(*args, cwd=None):
    proc = subprocess.run([SIMVERIFY, *map(str, args)], capture_output=True, text=True,
                          cwd=cwd)
    return Run(proc)


SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "simverify-results.schema.json"


def results(folder):
    """The folder's results.json, validated against the results schema (every file these
    tests make simverify write is checked)."""
    import jsonschema
    doc = json.loads((Path(folder) / "results.json").read_text())
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()),
                        cls=jsonschema.Draft202012Validator)
    return doc


class HostileCase(unittest.TestCase):
    """A fresh folder per test; files written into it by name."""

    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="simverify-hostile-"))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, name, text):
        path = self.dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def expect(self, run, rc, *needles, stream="err"):
        self.assertEqual(run.rc, rc, run)
        text = run.err if stream == "err" else run.out
        for needle in needles:
            self.assertIn(needle, text, run)
        return run
