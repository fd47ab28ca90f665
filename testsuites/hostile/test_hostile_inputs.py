"""Hostile inputs to gate, merge and report: special files instead of results or coverage,
results nested to overflow a recursive parser, wrong types and edited verdicts. Each ends with
exit 2 (or not releasable for a tampered verdict) and a message naming the file; none hangs,
crashes or trusts what the file claims."""
import json
import os
import shutil
import subprocess
import unittest
from pathlib import Path

from support import SIMVERIFY, HostileCase, results, simverify

PACK = """\
requirements:
  - id: HOSTILE-INPUT
    title: fails at the two largest steps
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode1
      h: {logspace: [-3, -1, 4]}
      tf: 1.0
    quality:
      measure: error_end
      threshold: "<= 0.005"
"""

AGGREGATED = """\
requirements:
  - id: HOSTILE-AGGREGATE
    title: order 1 of Euler, asked to be 2
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode1
      h: {logspace: [-3, -2, 3]}
      tf: 1.0
      p.lambda: [-1.0, -2.0]
    quality:
      measure: error_end
      aggregate: {over: [h], statistic: order}
      threshold: ">= 1.9"
"""


class SpecialFiles(HostileCase):
    def test_results_json_is_a_fifo(self):
        folder = self.dir / "fifo-results"
        folder.mkdir()
        os.mkfifo(folder / "results.json")
        for args in (("gate", folder), ("merge", folder, "--out", self.dir / "m"),
                     ("report", folder, "--out", self.dir / "site")):
            self.expect(simverify(*args), 2, "not a regular file")

    def test_coverage_is_a_fifo_or_a_device(self):
        pack = self.write("pack.yaml", PACK)
        simverify("run", pack, "--out", self.dir / "out", "--no-progress")
        fifo = self.dir / "coverage.info"
        os.mkfifo(fifo)
        for coverage in (fifo, "/dev/zero"):
            self.expect(simverify("gate", self.dir / "out", "--coverage", coverage), 2,
                        str(coverage), "not a regular file")

    def test_results_folder_named_like_an_option(self):
        pack = self.write("pack.yaml", PACK.replace("<= 0.005", "<= 0.5"))
        self.expect(simverify("run", pack, "--out", "./-h", "--no-progress", cwd=self.dir), 0,
                    stream="out")
        # `simverify gate -h` is the command's help; `./-h` names the folder, and the renderer
        # gets absolute paths so it never reads the folder as its own option.
        self.expect(simverify("gate", "./-h", cwd=self.dir), 0, "RELEASABLE", stream="out")
        self.expect(simverify("report", "./-h", "--out", "site", cwd=self.dir), 0, "report:",
                    stream="out")
        self.assertTrue((self.dir / "site" / "index.html").is_file())


MODEL_PACK = """\
requirements:
  - id: HOSTILE-MODEL
    level: unit
    component: simulate
    conditions:
      model: {model}
      method: ode45
      tf: 1.0
    quality:
      measure: t_end
      threshold: "<= 1e9"
"""

GAIN_DIAGRAM = """\
diagram:
  blocks:
    one: {type: constant, value: 1}
    sub: {type: subsystem, file: SUBSYSTEM}
  connections:
    - [one, sub]
  outputs: {y: sub}
"""


class SpecialModelFiles(HostileCase):
    """A block diagram, a subsystem file or an FMU named by a requirement that is a FIFO, a
    device, a folder or a link to nothing: refused with its path (exit 2), never waited on
    (a FIFO without a writer would block the reader forever) and never read whole (/dev/zero
    never ends)."""

    def special(self, name):
        """name -> (path, what the message says it is), one per kind of special file."""
        kinds = {}
        fifo = self.dir / f"fifo.{name}"
        os.mkfifo(fifo)
        kinds[fifo] = "a FIFO"
        zero = self.dir / f"zero.{name}"
        zero.symlink_to("/dev/zero")
        kinds[zero] = "a character device"
        folder = self.dir / f"folder.{name}"
        folder.mkdir()
        kinds[folder] = "it is a folder"
        dangling = self.dir / f"dangling.{name}"
        dangling.symlink_to(self.dir / "no-such-file")
        kinds[dangling] = "a symbolic link to nothing"
        return kinds

    def test_diagram_files(self):
        for path, what in self.special("yaml").items():
            pack = self.write("pack.yaml", MODEL_PACK.format(model=path.name))
            for args in (("validate", pack), ("run", pack, "--out", self.dir / "out"),
                         ("diagram", path)):
                self.expect(simverify(*args), 2, f"{path}:1:1:",
                            "cannot read the diagram file", what)
            self.assertFalse((self.dir / "out").exists())

    def test_subsystem_files(self):
        for path, what in self.special("yaml").items():
            top = self.write("top.yaml", GAIN_DIAGRAM.replace("SUBSYSTEM", path.name))
            pack = self.write("pack.yaml", MODEL_PACK.format(model="top.yaml"))
            for args, at in (
                    (("validate", pack), f"pack.yaml:6:14: error: condition 'model': {top}:4:34:"),
                    (("diagram", top), f"{top}:4:34: error:")):
                self.expect(simverify(*args), 2, at, f"subsystem 'sub': '{path}'",
                            "cannot read the subsystem file", what)

    def test_fmus(self):
        for path, what in self.special("fmu").items():
            pack = self.write("pack.yaml", MODEL_PACK.format(model=path.name))
            said = "(no such file)" if "nothing" in what else "(not a regular file)"
            for args in (("validate", pack), ("run", pack, "--out", self.dir / "out")):
                self.expect(simverify(*args), 2, "pack.yaml:6:14: error: condition 'model': ",
                            f"no FMU at '{path}' {said}")
            self.assertFalse((self.dir / "out").exists())

    def test_subsystem_files_are_checked_as_requirement_files(self):
        # What a YAML tree would drop silently, inside an included file too.
        self.write("sub.yaml", "diagram:\n  blocks:\n    in: {type: inport}\n"
                               "    g: {type: gain, k: 2, k: 3}\n  connections:\n    - [in, g]\n"
                               "  outputs: {y: g}\n")
        top = self.write("top.yaml", GAIN_DIAGRAM.replace("SUBSYSTEM", "sub.yaml"))
        self.expect(simverify("diagram", top), 2, f"{self.dir / 'sub.yaml'}:4:27: error: ",
                    "duplicate key 'k' in g (first at line 4)")


TABLE_PACK = """\
requirements:
  - id: HOSTILE-TABLE
    level: unit
    component: simulate
    conditions:
      model: ornstein_uhlenbeck
      method: ode4
      h: 0.01
      tf: 1.0
      u: {{table: {{file: {table}, column: u}}}}
      reference: none
    quality:
      measure: x_end
      compare: {{reference: {{file: {reference}, column: x}}}}
      threshold: "<= 1"
"""


class SpecialTables(HostileCase):
    """CSV tables a requirement names (an input signal's table, a compare reference) and the
    series a report plots are read only when they are regular files of bounded size: a FIFO
    would block forever, /dev/zero never end, an 8 GB sparse file fill the memory first."""

    def setUp(self):
        super().setUp()
        self.write("u.csv", "t,u\n0,1\n1,1\n")
        self.write("x.csv", "t,x\n1,0.632\n")
        os.mkfifo(self.dir / "fifo.csv")
        with open(self.dir / "sparse.csv", "wb") as handle:
            handle.truncate(8 << 30)  # 8 GiB of holes: costs no disk

    def check(self, table, reference, *needles):
        pack = self.write("pack.yaml", TABLE_PACK.format(table=table, reference=reference))
        for args in (("validate", pack), ("run", pack, "--out", self.dir / "out")):
            self.expect(simverify(*args), 2, *needles)
        self.assertFalse((self.dir / "out").exists())

    def test_the_tables_themselves_are_fine(self):
        pack = self.write("pack.yaml", TABLE_PACK.format(table="u.csv", reference="x.csv"))
        self.expect(simverify("validate", pack), 0, "valid", stream="out")

    def test_input_table(self):
        self.check("fifo.csv", "x.csv", "pack.yaml:10:", "fifo.csv: cannot read input table",
                   "not a regular file (it is a FIFO)")
        self.check("/dev/zero", "x.csv", "pack.yaml:10:", "not a regular file")
        self.check("sparse.csv", "x.csv", "pack.yaml:10:", "more than the limit")

    def test_compare_reference(self):
        self.check("u.csv", "fifo.csv", "pack.yaml:14:", "not a regular file")
        self.check("u.csv", "sparse.csv", "pack.yaml:14:", "more than the limit")

    def test_what_an_error_quotes_of_a_table_stays_short(self):
        # A header of 5 MB of one name, a cell of 1 MB of NULs: quoted as an excerpt, one line.
        self.write("wide.csv", "t," + "y" * 5_000_000 + "\n0,1\n")
        self.write("nul.csv", "t,x\n" + "\0" * 1_000_000 + ",1\n")
        self.write("uwide.csv", "t," + "v" * 5_000_000 + "\n0,1\n")
        self.write("unul.csv", "t,u\n" + "\0" * 1_000_000 + ",1\n")
        for table, reference, needle in (
                ("u.csv", "wide.csv", "columns: t, yyyy"),
                ("u.csv", "nul.csv", "expected a number, found '\\u0000\\u0000"),
                ("uwide.csv", "x.csv", "columns: vvvv"),
                ("unul.csv", "x.csv", "'\\u0000\\u0000")):
            pack = self.write("pack.yaml", TABLE_PACK.format(table=table, reference=reference))
            result = self.expect(simverify("validate", pack), 2, needle)
            self.assertLess(len(result.err), 2000, result.err[:300])
            self.assertIn(" bytes)", result.err)
            self.assertNotIn("\0", result.err)

    def test_series_csv_of_a_report(self):
        pack = self.write("pack.yaml", PACK.replace("<= 0.005", "<= 0.5"))
        out = self.dir / "out"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        series = sorted((out / "series").rglob("*.csv"))
        self.assertTrue(series)
        # Each plotted series replaced by a FIFO, /dev/zero or a huge sparse file: the report
        # renders without them instead of hanging.
        for i, csv in enumerate(series):
            csv.unlink()
            if i % 3 == 0:
                os.mkfifo(csv)
            elif i % 3 == 1:
                csv.symlink_to("/dev/zero")
            else:
                with open(csv, "wb") as handle:
                    handle.truncate(8 << 30)
        self.expect(simverify("report", out, "--out", self.dir / "site"), 0, "report:",
                    stream="out")
        self.assertTrue((self.dir / "site" / "index.html").is_file())

    def test_a_series_csv_with_a_huge_field(self):
        # One field beyond the csv module's 128 KiB limit: the plot is left out, no traceback.
        pack = self.write("pack.yaml", PACK.replace("<= 0.005", "<= 0.5"))
        out = self.dir / "out"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        for csv in (out / "series").rglob("*.csv"):
            csv.write_text("t," + "x" * 200_000 + "\n0,1\n")
        report = self.expect(simverify("report", out, "--out", self.dir / "site"), 0, "report:",
                             stream="out")
        self.assertNotIn("Traceback", report.err)
        self.assertTrue((self.dir / "site" / "index.html").is_file())

    def test_series_of_a_shard_to_merge(self):
        pack = self.write("pack.yaml", PACK.replace("<= 0.005", "<= 0.5"))
        shard = self.dir / "shard"
        self.expect(simverify("run", pack, "--out", shard, "--no-progress"), 0, stream="out")
        secret = self.write("secret.csv", "t,x\n0,42\n")
        merged = self.dir / "merged"
        named = sorted((shard / "series").rglob("*.csv"))
        # Files results.json does not name (a page, a series of no requirement, a link, a
        # FIFO, a huge sparse file) are left behind, never read or published.
        stray = [shard / "series" / "evil.html", shard / "series" / "Z" / "x.csv",
                 shard / "figures" / "f.gv", shard / "series" / "leak.csv",
                 shard / "series" / "fifo.csv", shard / "series" / "huge.csv"]
        for path in stray[:3]:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("<script>alert(1)</script>")
        stray[3].symlink_to(secret)
        os.mkfifo(stray[4])
        with open(stray[5], "wb") as huge:
            huge.truncate(3 << 30)
        self.expect(simverify("merge", shard, "--out", merged), 0, stream="out")
        copied = sorted(p.relative_to(merged) for p in merged.rglob("*") if p.is_file())
        self.assertEqual(copied, sorted([Path(".simverify-results"), Path("results.json")] +
                                        [p.relative_to(shard) for p in named]))
        shutil.rmtree(merged)
        # A file results.json names that is a link (to a file outside the shard, or to a
        # folder) or a FIFO: refused with its path, never followed, read or waited on; one
        # that is missing: refused, the merged results.json would name nothing.
        odd = named[0]
        kept = odd.read_bytes()
        for make, kind in ((lambda p: p.symlink_to(secret), "a symbolic link"),
                           (lambda p: p.symlink_to("/tmp"), "a symbolic link"),
                           (os.mkfifo, "a FIFO"), (lambda p: None, "missing")):
            odd.unlink()
            make(odd)
            self.expect(simverify("merge", shard, "--out", merged), 2, str(odd), kind,
                        "nothing was written")
            self.assertFalse(merged.exists())
            if odd.is_symlink() or odd.exists():
                odd.unlink()
            odd.write_bytes(kept)


class NestingBomb(HostileCase):
    def test_deeply_nested_results(self):
        folder = self.dir / "bomb"
        folder.mkdir()
        depth = 200_000
        (folder / "results.json").write_text(
            '{"format": "simverify.results/1", "requirements": ' + "[" * depth + "]" * depth + "}")
        for args in (("gate", folder), ("merge", folder, "--out", self.dir / "m"),
                     ("report", folder, "--out", self.dir / "site")):
            self.expect(simverify(*args), 2, "results.json:1:", "nested more than")

    def test_deeply_nested_coverage(self):
        pack = self.write("pack.yaml", PACK)
        simverify("run", pack, "--out", self.dir / "out", "--no-progress")
        coverage = self.write("coverage.json", '{"line": ' + "[" * 100_000 + "]" * 100_000 + "}")
        self.expect(simverify("gate", self.dir / "out", "--coverage", coverage), 2,
                    "coverage.json:1:", "nested more than")


class HugeGrids(HostileCase):
    def test_out_of_memory_at_load_names_the_file(self):
        # Three zipped 10-million-value axes (each within the limits) need about 3 GB: with
        # 1.5 GB of address space the load ends with an error at the file, exit 2, not a bare
        # "std::bad_alloc".
        pack = self.write("huge.yaml", """\
requirements:
  - id: HUGE
    level: unit
    component: simulate
    conditions:
      model: exponential
      zip: {p.lambda: {linspace: [-2, -1, 1e7]}, tf: {linspace: [1, 2, 1e7]}, x0: {linspace: [1, 2, 1e7]}}
    quality: {measure: x_end, threshold: "<= 1"}
""")

        def limited():
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (1500 << 20, 1500 << 20))

        proc = subprocess.run([SIMVERIFY, "validate", str(pack)], capture_output=True, text=True,
                              preexec_fn=limited, timeout=300)
        self.assertEqual(proc.returncode, 2, proc)
        self.assertIn(f"{pack}: error: out of memory while loading", proc.stderr)


class WrongTypes(HostileCase):
    def edited(self, change):
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "out"
        simverify("run", pack, "--out", out, "--no-progress")
        doc = results(out)
        change(doc)
        (out / "results.json").write_text(json.dumps(doc))
        return out

    def test_wrong_type_names_file_and_key(self):
        # Every reader of results.json (gate, merge, report, diff on either side) says which
        # file and which key, never a bare "[json.exception.type_error.302]".
        edits = (
            (lambda d: d["requirements"][0]["points"][1].update(passed="yes"),
             "requirements[0].points[1].passed", "expected a boolean"),
            (lambda d: d["requirements"][0]["points"][0].update(measures=[]),
             "requirements[0].points[0].measures", "expected an object"),
            (lambda d: d["requirements"][0].update(worst="x"),
             "requirements[0].worst", "expected a number or null"),
            (lambda d: d.update(summary=[]), "summary", "expected an object"),
            (lambda d: d["requirements"][0].update(id=3), "requirements[0].id",
             "expected a string"),
        )
        for change, key, expected in edits:
            out = self.edited(change)
            good = self.dir / "good"
            if not good.exists():
                simverify("run", self.dir / "pack.yaml", "--out", good, "--no-progress")
            for args in (("gate", out), ("merge", out, "--out", self.dir / "m"),
                         ("report", out, "--out", self.dir / "site"), ("diff", good, out),
                         ("diff", out, good)):
                run = self.expect(simverify(*args), 2, str(out / "results.json"), key, expected)
                self.assertNotIn("json.exception", run.err)
            self.assertFalse((self.dir / "m").exists())
            self.assertFalse((self.dir / "site").exists())

    def test_wrong_type_in_summary(self):
        out = self.edited(lambda doc: doc["summary"].update(passed=-3))
        self.expect(simverify("gate", out), 2, "summary.passed", "non-negative integer")


class TamperedVerdicts(HostileCase):
    """Edits that make a failing run look releasable: the gate decides again from the points
    (as the runner decided) and does not believe the recorded verdict."""

    def run_failing(self, text):
        out = self.dir / "out"
        self.assertEqual(simverify("run", self.write("pack.yaml", text), "--out", out,
                                   "--no-progress").rc, 1)
        return out

    def save(self, out, doc):
        (out / "results.json").write_text(json.dumps(doc))

    def expect_not_releasable(self, out, doc, reason):
        """Saves the edited results and expects the gate to see through them."""
        self.save(out, doc)
        gate = self.expect(simverify("gate", out), 1, reason, stream="out")
        self.assertIn("NOT RELEASABLE", gate.out)

    def test_marked_passed_everywhere(self):
        out = self.run_failing(PACK)
        doc = results(out)
        for r in doc["requirements"]:
            r["status"], r["reason"] = "passed", ""
            for p in r["points"]:
                p["passed"] = True
        doc["summary"].update(passed=1, failed=0)
        doc["releasable"] = True
        self.expect_not_releasable(out, doc, "HOSTILE-INPUT is marked passed")

    def test_aggregate_groups_marked_passed(self):
        out = self.run_failing(AGGREGATED)
        doc = results(out)
        r = doc["requirements"][0]
        r["status"], r["reason"] = "passed", ""
        for g in r["groups"]:
            g["passed"], g["quality"] = True, 2.0
        doc["releasable"] = True
        self.save(out, doc)
        self.expect(simverify("gate", out), 1, "its points say failed", stream="out")

    def test_duplicated_point(self):
        out = self.run_failing(PACK)
        doc = results(out)
        r = doc["requirements"][0]
        passing = [p for p in r["points"] if p["passed"]][0]
        r["points"] = [dict(passing) for _ in r["points"]]
        r["status"], r["reason"] = "passed", ""
        doc["releasable"] = True
        self.save(out, doc)
        self.expect(simverify("gate", out), 1, "listed twice", stream="out")

    def test_value_edited_with_its_verdict(self):
        # The failing points' value, quality and passed edited consistently, the summary too;
        # their recorded measures still say what the run measured (a scalar, and a vector
        # compared with an inline reference).
        compared = PACK.replace("measure: error_end",
                                "measure: x_end\n      compare: {reference: [0.36787944117144233]}")
        for pack in (PACK, compared):
            with self.subTest(pack=pack):
                self.check_value_edited(pack)

    def check_value_edited(self, pack):
        out = self.run_failing(pack)
        doc = results(out)
        r = doc["requirements"][0]
        for p in r["points"]:
            if not p["passed"]:
                p["value"] = p["quality"] = 0.001
                p["passed"] = True
        r["status"], r["reason"], r["worst"] = "passed", "", 0.001
        doc["summary"].update(passed=1, failed=0)
        doc["releasable"] = True
        self.expect_not_releasable(out, doc, "value 0.001 is not what its measures give")

    def test_failing_requirement_removed(self):
        # The failing requirement deleted from the file, the rest untouched: the run's own
        # summary still counts it, so the gate sees that the file was cut.
        passing = PACK.replace("HOSTILE-INPUT", "HOSTILE-PASSES").replace("<= 0.005", "<= 0.5")
        out = self.run_failing(PACK + passing.removeprefix("requirements:\n"))
        doc = results(out)
        doc["requirements"] = [r for r in doc["requirements"] if r["status"] == "passed"]
        doc["releasable"] = True
        self.assertEqual(len(doc["requirements"]), 1)
        self.expect_not_releasable(out, doc, "summary counts 1 failed, 0 recorded")
        # merge decides the union again: it refuses the cut file instead of passing it on
        # with a summary made to agree.
        self.expect(simverify("merge", out, "--out", self.dir / "merged"), 2,
                    str(out / "results.json"), "summary counts 1 failed, 0 recorded",
                    "nothing was written")
        self.assertFalse((self.dir / "merged").exists())


if __name__ == "__main__":
    unittest.main()
