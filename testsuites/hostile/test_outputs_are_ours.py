"""No user file lost: a results folder (run --out, merge --out) is simverify's alone, has one
writer at a time and is replaced whole, so a refused, killed or failed run leaves every file
as it was (docs/runner.md, "Guarantees")."""
import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import time
import unittest
from pathlib import Path

from support import SIMVERIFY, HostileCase, results, simverify

PACK = """\
requirements:
  - id: HOSTILE-OUT
    title: a small passing requirement
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode4
      h: {logspace: [-3, -1, 6]}
      tf: 1.0
    quality:
      measure: error_end
      threshold: "<= 0.5"
"""

# Thousands of small steps per point and many points: still running when the test kills it.
SLOW = """\
requirements:
  - id: HOSTILE-SLOW
    title: long enough to be killed half-way
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode1
      h: 1e-6
      tf: 2.0
      p.lambda: {linspace: [-1, -2, 400]}
    quality:
      measure: error_end
      threshold: "<= 0.5"
"""


DIAGRAM = Path(__file__).resolve().parents[2] / "examples" / "own-diagram" / "motor_speed.yaml"


def tree(folder):
    """Every file under `folder` with its bytes."""
    out = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, folder)] = f.read()
    return out


class OutputFoldersAreOurs(HostileCase):
    def user_folder(self):
        folder = self.dir / "project"
        self.write("project/index.html", "<p>mine</p>")
        self.write("project/static/style.css", "body {}")
        self.write("project/src/main.c", "int main(void) { return 0; }\n")
        self.write("project/.git/HEAD", "ref: refs/heads/main\n")
        return folder

    def test_run_refuses_a_folder_it_did_not_write(self):
        pack = self.write("pack.yaml", PACK)
        folder = self.user_folder()
        before = tree(folder)
        self.expect(simverify("run", pack, "--out", folder, "--no-progress"), 2,
                    "not a simverify results folder")
        self.assertEqual(tree(folder), before)

    def test_merge_refuses_a_folder_it_did_not_write(self):
        pack = self.write("pack.yaml", PACK)
        simverify("run", pack, "--out", self.dir / "whole", "--no-progress")
        folder = self.user_folder()
        before = tree(folder)
        self.expect(simverify("merge", self.dir / "whole", "--out", folder), 2,
                    "not a simverify results folder")
        self.assertEqual(tree(folder), before)

    def test_out_is_a_file_or_a_fifo(self):
        pack = self.write("pack.yaml", PACK)
        plain = self.write("plain.txt", "keep me\n")
        fifo = self.dir / "fifo"
        os.mkfifo(fifo)
        for target in (plain, fifo):
            self.expect(simverify("run", pack, "--out", target, "--no-progress"), 2,
                        "is not a folder")
        self.assertEqual(plain.read_text(), "keep me\n")
        self.assertTrue(fifo.is_fifo())

    def gate_json(self, target):
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "results"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        return simverify("gate", out, "--json", target)

    def test_gate_json_replaces_only_a_regular_file(self):
        fifo = self.dir / "decision.fifo"
        os.mkfifo(fifo)
        folder = self.dir / "decision"
        folder.mkdir()
        for target, reason in ((fifo, "it is a FIFO"), (folder, "it is a folder")):
            run = self.gate_json(target)
            self.expect(run, 2, str(target), reason)
        self.assertTrue(fifo.is_fifo())
        self.assertEqual(list(folder.iterdir()), [])
        self.assertEqual(sorted(p.name for p in self.dir.iterdir() if ".tmp." in p.name), [])

    def test_gate_json_dash_is_standard_output(self):
        # `--json -` pipes into jq: the JSON alone on stdout, the lines on stderr; `./-` is a
        # file of that name.
        run = self.gate_json("-")
        self.assertEqual(run.rc, 0, run)
        self.assertTrue(json.loads(run.out)["releasable"])
        self.assertIn("gate: RELEASABLE", run.err)
        self.assertFalse((self.dir / "-").exists())
        run = simverify("gate", self.dir / "results", "--json", "./-", cwd=self.dir)
        self.assertEqual(run.rc, 0, run)
        self.assertTrue(json.loads((self.dir / "-").read_text())["releasable"])
        # The JSON is the product: a standard output that takes nothing is an error (exit 2),
        # not a releasable verdict nobody received.
        with open("/dev/full", "w") as full:
            lost = subprocess.run([SIMVERIFY, "gate", self.dir / "results", "--json", "-"],
                                  stdout=full, stderr=subprocess.PIPE, text=True, check=False)
        self.assertEqual(lost.returncode, 2, lost.stderr)
        self.assertIn("--json -: cannot write the decision to standard output", lost.stderr)

    def test_gate_json_through_a_link_keeps_the_link(self):
        real = self.write("real/decision.json", "old\n")
        link = self.dir / "decision.json"
        link.symlink_to(real)
        self.expect(self.gate_json(link), 0, stream="out")
        self.assertTrue(link.is_symlink())
        self.assertTrue(json.loads(real.read_text())["releasable"])
        dangling = self.dir / "nowhere.json"
        dangling.symlink_to(self.dir / "missing" / "x.json")
        self.expect(self.gate_json(dangling), 2, "a symbolic link to nothing")
        self.assertTrue(dangling.is_symlink())

    def test_out_through_a_link_keeps_the_link(self):
        pack = self.write("pack.yaml", PACK)
        real = self.dir / "real"
        real.mkdir()
        link = self.dir / "out"
        link.symlink_to(real)
        for _ in range(2):  # the second run replaces the results the first wrote
            self.expect(simverify("run", pack, "--out", link, "--no-progress"), 0, stream="out")
            self.assertTrue(link.is_symlink())
            self.assertTrue(results(real)["complete"])
        self.expect(simverify("merge", link, "--out", self.dir / "merged"), 0, stream="out")
        merged = self.dir / "merged-link"
        merged.symlink_to(self.dir / "merged")
        self.expect(simverify("merge", link, "--out", merged), 0, stream="out")
        self.assertTrue(merged.is_symlink())
        leftovers = [p.name for p in self.dir.iterdir() if "staging" in p.name]
        self.assertEqual(leftovers, [])

    def test_merge_out_holds_the_shards(self):
        # Merging R/sh1 R/sh2 into R would replace R whole, shards and all: refused, nothing
        # touched, also through a link to R.
        pack = self.write("pack.yaml", PACK)
        holder = self.dir / "R"
        for i in (1, 2):
            self.expect(simverify("run", pack, "--out", holder / f"sh{i}", "--shard", f"{i}/2",
                                  "--no-progress"), 0, stream="out")
        (holder / ".simverify-results").write_text((holder / "sh1" / ".simverify-results")
                                                   .read_text())
        (self.dir / "link").symlink_to(holder)
        before = tree(holder)
        for out in (holder, self.dir / "link", holder / "sh1" / ".."):
            self.expect(simverify("merge", holder / "sh1", holder / "sh2", "--out", out), 2,
                        f"--out {out} holds the shard {holder / 'sh1'}", "nothing was written")
            self.assertEqual(tree(holder), before)

    def test_results_inside_results_are_refused(self):
        # `run --out out/1` beside results in `out` was accepted, and the next run into `out`
        # deleted out/1 without a word; so did it a user's file put into `out`.
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "out"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        before = tree(self.dir)
        for args in (("run", pack, "--out", out / "1", "--shard", "1/2", "--no-progress"),
                     ("merge", out, "--out", out / "all"),
                     ("run", pack, "--out", out / "deeper" / "1", "--no-progress")):
            self.expect(simverify(*args), 2, "is inside the results folder", str(out),
                        "give a folder beside it")
            self.assertEqual(tree(self.dir), before)
        # A shard moved in by hand, or a user's notes: the run into `out` refuses to delete them.
        self.expect(simverify("run", pack, "--out", self.dir / "shard", "--shard", "1/2",
                              "--no-progress"), 0, stream="out")
        for intruder, reason in ((out / "1", "is a results folder of another run"),
                                 (out / "notes.txt", "simverify did not write")):
            if intruder.name == "1":
                shutil.move(self.dir / "shard", intruder)
            else:
                intruder.write_text("mine\n")
            held = tree(out)
            self.expect(simverify("run", pack, "--out", out, "--no-progress"), 2,
                        f"holds {intruder}", reason)
            self.assertEqual(tree(out), held)
            shutil.rmtree(intruder) if intruder.is_dir() else intruder.unlink()
        # Through a link the folder is inside the results all the same (L -> out/series).
        (self.dir / "L").symlink_to(out / "series")
        held = tree(self.dir)
        for args in (("run", pack, "--out", self.dir / "L" / "x", "--no-progress"),
                     ("merge", out, "--out", self.dir / "L" / "m")):
            self.expect(simverify(*args), 2, "is inside the results folder")
            self.assertEqual(tree(self.dir), held)
        (self.dir / "L").unlink()
        # A site's marker must be the renderer's file, not a link to any file.
        (out / "mine").mkdir()
        (out / "mine" / "thesis.tex").write_text("precious")
        (out / "mine" / ".simverify-site").symlink_to(pack)
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 2,
                    f"holds {out / 'mine'}", "simverify did not write")
        self.assertEqual((out / "mine" / "thesis.tex").read_text(), "precious")
        shutil.rmtree(out / "mine")
        # The report of these results (`report out --out out/site`) is theirs: replaced with them.
        rendered = simverify("report", out, "--out", out / "site")
        self.assertTrue((out / "site" / "index.html").is_file(), rendered)
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        self.assertFalse((out / "site").exists())

    def test_out_is_the_working_folder_or_holds_it(self):
        # Replacing it would leave the caller in a deleted folder with the results out of
        # sight: refused, even when it is empty or a results folder.
        pack = self.write("pack.yaml", PACK)
        results_dir = self.dir / "results"
        self.expect(simverify("run", pack, "--out", results_dir, "--no-progress"), 0,
                    stream="out")
        empty = self.dir / "empty"
        empty.mkdir()
        for cwd in (empty, results_dir):
            for out in (".", ".."):
                for args in (("run", pack, "--out", out, "--no-progress"),
                             ("merge", results_dir, "--out", out),
                             ("report", results_dir, "--out", out)):
                    run = simverify(*args, cwd=cwd)
                    self.assertEqual(run.rc, 2, (args, cwd, run))
                    # Where the folder also holds the results, that reason may come first.
                    self.assertTrue(any(reason in run.err for reason in (
                        "is the working folder or holds it", "one of the shards",
                        "holds the shard",
                        "must not be the results folder or contain it")), (args, cwd, run))
        for args in (("run", pack, "--out", ".", "--no-progress"),
                     ("merge", results_dir, "--out", "."), ("report", results_dir, "--out", ".")):
            self.expect(simverify(*args, cwd=empty), 2, "is the working folder or holds it")
        self.assertEqual(list(empty.iterdir()), [])
        self.assertTrue(results(results_dir)["complete"])
        self.expect(simverify("run", pack, "--out", "", "--no-progress"), 2, "an empty path")

    def test_out_is_a_link_to_nothing_or_to_a_file(self):
        pack = self.write("pack.yaml", PACK)
        plain = self.write("plain.txt", "keep me\n")
        dangling = self.dir / "nowhere"
        dangling.symlink_to(self.dir / "missing")
        to_file = self.dir / "to-file"
        to_file.symlink_to(plain)
        for link, reason in ((dangling, "a symbolic link to nothing"),
                             (to_file, "which is not a folder")):
            self.expect(simverify("run", pack, "--out", link, "--no-progress"), 2, reason)
            self.assertTrue(link.is_symlink())
        self.assertFalse((self.dir / "missing").exists())
        self.assertEqual(plain.read_text(), "keep me\n")

    def test_rerun_replaces_its_own_folder_whole(self):
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "out"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        (out / "series" / "STALE").mkdir(parents=True)
        self.expect(simverify("run", pack, "--out", out, "--no-progress", "--series", "none"), 0,
                    stream="out")
        self.assertFalse((out / "series").exists(), "the previous run's files are replaced")
        self.assertTrue(results(out)["complete"])
        leftovers = [p.name for p in self.dir.iterdir() if "staging" in p.name]
        self.assertEqual(leftovers, [])


class OneWriterPerFolder(HostileCase):
    def test_second_writer_is_refused(self):
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "out"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        before = tree(out)
        with open(out / ".simverify-results", "r+b") as marker:
            fcntl.lockf(marker, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running simverify holds it
            self.expect(simverify("run", pack, "--out", out, "--no-progress"), 2,
                        "another simverify is writing")
            self.expect(simverify("merge", out, "--out", out), 2)
        self.assertEqual(tree(out), before)

    def test_killed_rerun_leaves_the_old_results_whole(self):
        out = self.dir / "out"
        self.expect(simverify("run", self.write("pack.yaml", PACK), "--out", out,
                              "--no-progress"), 0, stream="out")
        before = tree(out)
        slow = self.write("slow.yaml", SLOW)
        proc = subprocess.Popen([SIMVERIFY, "run", slow, "--out", out, "--no-progress",
                                 "--jobs", "1", "--series", "all"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Wait (by events, not by a time limit) until the re-run has written series.
        while proc.poll() is None:
            staged = [p for p in self.dir.iterdir() if "staging" in p.name]
            if staged and (staged[0] / "series").exists():
                break
            time.sleep(0.01)
        self.assertIsNone(proc.poll(), "the slow run ended before it could be killed")
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.assertEqual(tree(out), before)
        # The next run clears what the killed one left beside the folder.
        self.expect(simverify("run", self.dir / "pack.yaml", "--out", out, "--no-progress"), 0,
                    stream="out")
        self.assertEqual([p.name for p in self.dir.iterdir() if "staging" in p.name], [])

    def pack_waiting_for_go(self):
        """A one-point pack whose program waits until the file `go` exists (by a file, not by
        time): the run is mid-way whatever the machine's speed. Returns the pack and `go`."""
        go = self.dir / "go"
        program = self.write("wait.sh", f"""#!/bin/sh
cat >/dev/null
while [ ! -e {go} ]; do sleep 0.02; done
echo '{{"measures": {{"y": 1}}}}'
""")
        program.chmod(0o755)
        pack = self.write("pack.yaml", f"""\
requirements:
  - id: HOSTILE-WAITS
    title: a run that waits for its test to act
    level: unit
    component: command
    command: [{program}]
    measures: [y]
    conditions: {{x: 1}}
    quality: {{measure: y, threshold: "<= 1"}}
""")
        return pack, go

    def test_a_folder_put_in_place_of_out_during_the_run_is_left_alone(self):
        # The run's folder moved away and another one made in its place while the run writes:
        # that one is someone else's. The run leaves it as it is and keeps its results beside.
        # The point's program waits for the swap (by a file, not by time), so the run is
        # mid-way whatever the machine's speed.
        pack, go = self.pack_waiting_for_go()
        out = self.dir / "out"
        proc = subprocess.Popen([SIMVERIFY, "run", pack, "--out", out, "--no-progress"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            # The run holds the folder once its marker is there (it makes the folder first).
            while proc.poll() is None and not (out / ".simverify-results").exists():
                time.sleep(0.01)
            self.assertIsNone(proc.poll(), "the run ended before its folder could be swapped")
            out.rename(self.dir / "moved")
            out.mkdir()
            (out / "keep.txt").write_text("precious")
        finally:
            go.touch()
        _, err = proc.communicate(timeout=300)
        self.assertEqual(proc.returncode, 2, err)
        self.assertIn("the folder was moved or replaced while the results were written", err)
        self.assertEqual(sorted(p.name for p in out.iterdir()), ["keep.txt"])
        self.assertEqual((out / "keep.txt").read_text(), "precious")
        kept = [p for p in self.dir.iterdir() if p.name.startswith("out.results-")]
        self.assertEqual(len(kept), 1, err)
        self.assertIn(f"the results are in {kept[0]}", err)
        self.assertTrue((kept[0] / "results.json").is_file())

    def test_a_file_put_into_out_during_the_run_is_not_deleted(self):
        # A user's file put into the results folder while the run writes went with the previous
        # results when the new ones replaced them. The run now leaves the folder as it is and
        # keeps its results beside it (exit 2).
        pack, go = self.pack_waiting_for_go()
        out = self.dir / "out"
        go.touch()
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        go.unlink()
        proc = subprocess.Popen([SIMVERIFY, "run", pack, "--out", out, "--no-progress"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            while proc.poll() is None and not list(self.dir.glob(".out.staging-*")):
                time.sleep(0.01)
            (out / "notes.txt").write_text("precious")
        finally:
            go.touch()
        _, err = proc.communicate(timeout=300)
        self.assertEqual(proc.returncode, 2, err)
        self.assertIn(f"holds {out / 'notes.txt'}, which simverify did not write", err)
        self.assertIn("the results are in", err)
        self.assertEqual((out / "notes.txt").read_text(), "precious")
        kept = list(self.dir.glob("out.results-*"))
        self.assertEqual(len(kept), 1)
        self.assertTrue(results(kept[0])["complete"])

    def test_files_a_program_leaves_are_not_published(self):
        # A `command` program's TMPDIR lies inside the run's staging folder (so a killed run's
        # leftovers go with it): what it writes up there is not published with the results.
        program = self.write("litter.sh", """#!/bin/sh
cat >/dev/null
for d in "$TMPDIR" "$(dirname "$TMPDIR")" "$(dirname "$(dirname "$TMPDIR")")"; do
  echo litter > "$d/litter.html" 2>/dev/null
done
echo '{"measures": {"y": 1}}'
""")
        program.chmod(0o755)
        pack = self.write("pack.yaml", """\
requirements:
  - id: HOSTILE-LITTER
    title: a program that leaves files about
    level: unit
    component: command
    command: [./litter.sh]
    measures: [y]
    conditions: {x: [1, 2]}
    quality: {measure: y, threshold: "<= 1"}
""")
        out = self.dir / "out"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        self.assertEqual(sorted(p.name for p in out.iterdir()),
                         [".simverify-results", "junit.xml", "results.json"])

    def test_interrupted_or_timed_out_points_leave_no_temporary_files(self):
        # A `command` point makes a working folder in its TMPDIR, and its worker is killed by
        # Ctrl-C or --timeout before its destructor could remove it: the executor's own
        # folder (WorkerTemp, in the run's staging folder) takes it along. The caller's
        # TMPDIR is not used at all.
        pack = self.write("slow_program.yaml", """\
requirements:
  - id: HOSTILE-SLOW-PROGRAM
    title: a program that takes longer than anyone waits
    level: unit
    component: command
    command: [sleep, "30"]
    measures: [x]
    conditions:
      k: [1, 2]
    quality: {measure: x, threshold: "<= 1"}
""")
        tmp = self.dir / "tmp"
        tmp.mkdir()
        env = dict(os.environ, TMPDIR=str(tmp))
        proc = subprocess.Popen([SIMVERIFY, "run", pack, "--out", self.dir / "out",
                                 "--no-progress"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=env)
        while proc.poll() is None and not list(self.dir.rglob("simverify-point-*")):
            time.sleep(0.01)  # by events: until a point's working folder exists
        self.assertIsNone(proc.poll(), "the run ended before its points started")
        proc.send_signal(signal.SIGINT)
        self.assertEqual(proc.wait(), 1)
        self.assertEqual(list(tmp.iterdir()), [])
        self.assertEqual(list(self.dir.rglob("simverify-point-*")), [])
        self.assertEqual(list(self.dir.rglob(".workers-*")), [])
        timed_out = subprocess.run([SIMVERIFY, "run", pack, "--out", self.dir / "out",
                                    "--no-progress", "--timeout", "0.5"],
                                   capture_output=True, text=True, env=env)
        self.assertEqual(timed_out.returncode, 1, timed_out)
        self.assertIn("timed out", timed_out.stdout + timed_out.stderr)
        self.assertEqual(list(tmp.iterdir()), [])
        self.assertEqual(list(self.dir.rglob("simverify-point-*")), [])
        self.assertEqual(list(self.dir.rglob(".workers-*")), [])

    def test_a_signal_while_loading_stops_and_leaves_no_unpacked_fmu(self):
        # Ctrl-C or SIGTERM while the requirements load (here: unpacking a 60 MiB FMU) is
        # neither lost (the run went on and passed) nor left to kill simverify with the
        # half-unpacked FMU in TMPDIR: it stops, exit 2, nothing run or written, TMPDIR empty.
        import zipfile
        fmu = self.dir / "Slow.fmu"
        with zipfile.ZipFile(fmu, "w", compression=zipfile.ZIP_DEFLATED) as z:
            z.writestr("modelDescription.xml",
                       '<fmiModelDescription fmiVersion="2.0" modelName="m" guid="{0}">'
                       '<CoSimulation modelIdentifier="m"/></fmiModelDescription>')
            z.writestr("binaries/linux64/m.so", "no library: the signal comes first")
            z.writestr("resources/zeros.bin", bytes(60 << 20))  # below the 64 MiB floor
        pack = self.write("slow_fmu.yaml", """\
requirements:
  - id: HOSTILE-SLOW-FMU
    title: an FMU that takes a while to unpack
    level: unit
    component: simulate
    conditions: {model: Slow.fmu, tf: 1}
    quality: {measure: final(y.x), threshold: "<= 1"}
""")
        tmp = self.dir / "tmp"
        tmp.mkdir()
        env = dict(os.environ, TMPDIR=str(tmp))
        out = self.dir / "out"
        for command in ("run", "validate"):
            for sig in (signal.SIGINT, signal.SIGTERM):
                # On a loaded machine the unpacking may end before the signal lands (the FMU
                # is then refused: its binary is no library); it is tried again (5 tries).
                for attempt in range(5):
                    args = [SIMVERIFY, command, pack] + (
                        ["--out", out, "--no-progress"] if command == "run" else [])
                    proc = subprocess.Popen(args, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True, env=env)
                    while proc.poll() is None:  # by events: until it writes the big entry
                        if list(tmp.glob("simverify-fmu-*/Slow-*/resources")):
                            break
                        time.sleep(0.002)
                    proc.send_signal(sig)
                    stdout, err = proc.communicate()
                    self.assertEqual(list(tmp.iterdir()), [], f"{command}, {sig!r}")
                    self.assertFalse(out.exists(), f"{command}, {sig!r}")
                    if "not an x86_64 ELF shared library" in err:
                        continue
                    self.assertEqual(proc.returncode, 2, f"{command}, {sig!r}: {stdout}{err}")
                    self.assertIn("interrupted by a signal while loading the requirements; "
                                  "nothing was run", err)
                    break
                else:
                    self.fail(f"five {command}s unpacked the FMU before {sig!r} reached them")

    def test_a_killed_simverify_leaves_no_program_running(self):
        # SIGKILL gives simverify no chance to clean up; the keeper notices its parent's death
        # (PR_SET_PDEATHSIG) and kills the program and what it started in the background,
        # in another session too (docs/own-simulation.md).
        pids = self.dir / "pids"
        program = self.write("leaves.sh", f"""#!/bin/sh
cat >/dev/null
setsid sh -c 'echo $$ >> {pids}; exec sleep 1000' &
sh -c 'echo $$ >> {pids}; exec sleep 1000' &
echo $$ >> {pids}
exec sleep 1000
""")
        program.chmod(0o755)
        pack = self.write("leaves.yaml", f"""\
requirements:
  - id: HOSTILE-LEAVES
    title: a program that starts background processes and never ends
    level: unit
    component: command
    command: [{program}]
    measures: [y]
    conditions: {{}}
    quality: {{measure: y, threshold: "<= 1"}}
""")

        def alive(pid):
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    return stat.read().split(") ")[-1][0] != "Z"
            except (FileNotFoundError, ProcessLookupError):  # gone between open and read
                return False

        # A private TMPDIR, so a leftover would be seen (test_a_killed_run_without_isolation_
        # leaves_tmpdir_untouched checks it).
        tmp = self.dir / "tmp"
        tmp.mkdir()
        env = dict(os.environ, TMPDIR=str(tmp))
        for isolation in ("process", "none"):
            pids.unlink(missing_ok=True)
            proc = subprocess.Popen([SIMVERIFY, "run", pack, "--out", self.dir / "out",
                                     "--no-progress", "--isolation", isolation],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            started = []
            while proc.poll() is None and len(started) < 3:  # by events: all three started
                started = pids.read_text().split() if pids.exists() else []
                time.sleep(0.01)
            self.assertIsNone(proc.poll(), "the run ended before its program started")
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            # A bound against hanging the suite only; they go within milliseconds.
            deadline = time.monotonic() + 60
            while any(alive(p) for p in started) and time.monotonic() < deadline:
                time.sleep(0.01)
            left = [p for p in started if alive(p)]
            for p in left:
                os.kill(int(p), signal.SIGKILL)
            self.assertEqual(left, [], f"--isolation {isolation}: left running")

    def test_a_killed_run_without_isolation_leaves_tmpdir_untouched(self):
        # With --isolation none the points run in simverify's own process: a SIGKILL runs no
        # destructor, so the point's working folder stays. It lies in the thread executor's
        # folder inside the run's staging folder (like the workers' TMPDIR with process
        # isolation), never in TMPDIR, and the next run into the folder sweeps it.
        pack = self.write("sleeps.yaml", """\
requirements:
  - id: HOSTILE-SLEEPS
    title: a program that sleeps until it is killed
    level: unit
    component: command
    command: [sh, -c, 'touch "$TMPDIR/left-by-the-program"; exec sleep 1000']
    measures: [y]
    conditions: {}
    quality: {measure: y, threshold: "<= 1"}
""")
        tmp = self.dir / "tmp"
        tmp.mkdir()
        env = dict(os.environ, TMPDIR=str(tmp))
        out = self.dir / "out"
        proc = subprocess.Popen([SIMVERIFY, "run", pack, "--out", out, "--no-progress",
                                 "--isolation", "none"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        # By events: until the program has written into its TMPDIR.
        while proc.poll() is None and not list(self.dir.rglob("left-by-the-program")):
            time.sleep(0.01)
        self.assertIsNone(proc.poll(), "the run ended before its program started")
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.assertEqual(list(tmp.iterdir()), [])
        left = list(self.dir.rglob("simverify-point-*"))
        self.assertEqual(len(left), 1, left)
        self.assertIn(".out.staging-", str(left[0]))
        # The next run into the folder removes what the killed one left.
        rerun = subprocess.run([SIMVERIFY, "run", self.write("pack.yaml", PACK), "--out", out,
                                "--no-progress", "--isolation", "none"],
                               capture_output=True, text=True, env=env)
        self.assertEqual(rerun.returncode, 0, rerun.stderr)
        self.assertEqual(list(tmp.iterdir()), [])
        self.assertEqual(list(self.dir.rglob("simverify-point-*")), [])
        self.assertEqual(list(self.dir.rglob("left-by-the-program")), [])
        self.assertEqual(list(self.dir.rglob(".threads-*")), [])
        self.assertEqual([p.name for p in self.dir.iterdir() if "staging" in p.name], [])

    def test_interrupted_merge_leaves_the_old_results_whole(self):
        # A shard with many series files, so the merge is still copying when Ctrl-C comes;
        # it stops before the next file, removes its staging folder and writes nothing.
        shard = self.dir / "shard"
        bulk_pack = PACK.replace("HOSTILE-OUT", "BULK").replace(
            "h: {logspace: [-3, -1, 6]}", "h: 0.1\n      x0: {linspace: [1, 2, 5000]}")
        self.expect(simverify("run", self.write("pack.yaml", bulk_pack), "--out", shard,
                              "--no-progress"), 0, stream="out")
        bulk = shard / "series" / "BULK"
        out = self.dir / "merged"
        self.expect(simverify("merge", shard, "--out", out), 0, stream="out")
        for sig in (signal.SIGINT, signal.SIGTERM):
            # On a loaded machine the merge may end before the signal lands: then its results
            # are whole, and it is tried again (the interrupt must be seen within 5 tries).
            for attempt in range(5):
                # A re-merge differs (the quality reads error_end, not this series).
                (bulk / "0-trajectory.csv").write_text(f"t,x\n0,{sig}{attempt}\n")
                before = tree(out)
                proc = subprocess.Popen([SIMVERIFY, "merge", shard, "--out", out],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
                while proc.poll() is None:  # by events: until it copies into its staging
                    staged = [p for p in self.dir.iterdir() if "staging" in p.name]
                    if staged and (staged[0] / "series").exists():
                        break
                    time.sleep(0.005)
                proc.send_signal(sig)
                _, err = proc.communicate()
                self.assertEqual([p.name for p in self.dir.iterdir() if "staging" in p.name], [])
                if proc.returncode == 0:
                    self.assertEqual((out / "series" / "BULK" / "0-trajectory.csv").read_text(),
                                     f"t,x\n0,{sig}{attempt}\n")
                    continue
                self.assertEqual(proc.returncode, 2, err)
                self.assertIn("interrupted by a signal", err)
                self.assertIn("nothing was written", err)
                self.assertEqual(tree(out), before)
                break
            else:
                self.fail(f"five merges ended before {sig!r} reached them")

    def test_interrupted_run_writes_valid_files_marked_incomplete(self):
        out = self.dir / "out"
        slow = self.write("slow.yaml", SLOW)
        proc = subprocess.Popen([SIMVERIFY, "run", slow, "--out", out, "--no-progress",
                                 "--jobs", "1"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        while proc.poll() is None:
            staged = [p for p in self.dir.iterdir() if "staging" in p.name]
            if staged and any(staged[0].glob(".results.json.*")):
                break
            time.sleep(0.01)
        proc.send_signal(signal.SIGTERM)
        stdout, _ = proc.communicate()
        self.assertEqual(proc.returncode, 1)
        doc = results(out)
        self.assertFalse(doc["complete"])
        self.assertFalse(doc["releasable"])
        self.assertNotIn("verdict: RELEASABLE", stdout)


class WriteErrors(HostileCase):
    """A write that fails (a full disk, a file size limit) ends with exit 2 naming the path and
    the reason, prints no verdict and leaves no temporary file; old results stay whole."""

    def check_failed_write(self, run_in, expected_reason, limit=None, merge=False):
        """`run` into `run_in`, or with `merge`, the merge of two shards of that run."""
        out = run_in / "out"
        pack = self.write("pack.yaml", PACK)
        if merge:
            shards = self.dir / "shards"
            for series in ("none", "all"):
                for i in (1, 2):
                    shard = simverify("run", pack, "--out", shards / f"{series}{i}", "--shard",
                                      f"{i}/2", "--no-progress", "--series", series)
                    self.assertEqual(shard.rc, 0, shard)
            first = simverify("merge", shards / "none1", shards / "none2", "--out", out)
            second = ["merge", shards / "all1", shards / "all2", "--out", out]
        else:
            first = simverify("run", pack, "--out", out, "--no-progress", "--series", "none")
            second = ["run", pack, "--out", out, "--no-progress", "--series", "all"]
        self.assertEqual(first.rc, 0, first)
        before = tree(run_in)

        def limited():
            if limit is not None:
                import resource
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        proc = subprocess.run([SIMVERIFY, *map(str, second)], capture_output=True, text=True,
                              preexec_fn=limited)
        self.assertEqual(proc.returncode, 2, proc)
        self.assertIn(expected_reason, proc.stderr)
        self.assertIn(str(run_in), proc.stderr)
        self.assertNotIn("RELEASABLE", proc.stdout)
        self.assertEqual(tree(run_in), before, "old results whole, nothing left behind")

    def test_file_size_limit(self):
        # The results of the first run fit in 2 KiB per file; with every series kept the
        # series CSVs exceed it.
        self.check_failed_write(self.dir / "disk", "File too large", limit=2048)

    def test_file_size_limit_in_merge(self):
        self.check_failed_write(self.dir / "disk", "File too large", limit=2048, merge=True)

    def test_full_disk(self):
        self.check_full_disk(merge=False)

    # The copy of a shard's series files said "Input/output error" (fs::copy_file's sendfile).
    def test_full_disk_in_merge(self):
        self.check_full_disk(merge=True)

    def test_a_disk_full_before_the_marker_leaves_nothing(self):
        # The disk is full before anything is written: the new folder and the staging folder
        # the run made went on living beside the filler (a constructor that throws runs no
        # destructor).
        with self.small_disk("64k") as disk:
            with open(disk / "filler", "wb", buffering=0) as filler:
                try:
                    while True:
                        filler.write(b"x" * 4096)
                except OSError:
                    pass
            pack = self.write("pack.yaml", PACK)
            whole = self.dir / "whole"
            self.expect(simverify("run", pack, "--out", whole, "--no-progress"), 0, stream="out")
            for args in (("run", pack, "--out", disk / "out", "--no-progress"),
                         ("merge", whole, "--out", disk / "out")):
                self.expect(simverify(*args), 2, "No space left on device")
                self.assertEqual(sorted(p.name for p in disk.iterdir()), ["filler"], args)

    PUBLISHED = [".simverify-results", "figures", "junit.xml", "results.json", "series"]

    def test_out_is_a_mount_point(self):
        # A container's volume (`docker run -v $PWD/out:/out ... --out /out`) cannot be renamed:
        # the run printed its verdict, then failed with EBUSY and deleted the finished results.
        pack = self.write("pack.yaml", PACK)
        whole = self.dir / "whole"
        self.expect(simverify("run", pack, "--out", whole, "--no-progress"), 0, stream="out")
        with self.small_disk("8m") as disk:
            for args in (("run", pack, "--out", disk, "--no-progress", "--series", "all"),
                         ("run", pack, "--out", disk, "--no-progress"),
                         ("merge", whole, "--out", disk)):
                run = self.expect(simverify(*args), 0, "verdict: RELEASABLE", stream="out")
                self.assertEqual(run.err, "", args)
                self.assertTrue(results(disk)["complete"], args)
                names = {p.name for p in disk.iterdir()}
                self.assertLessEqual(names, set(self.PUBLISHED), args)
                self.assertIn("series", names, args)
            # A user's file in it is refused as in any results folder; the folder stays.
            self.write("disk/notes.txt", "mine\n")
            before = tree(disk)
            self.expect(simverify("run", pack, "--out", disk, "--no-progress"), 2, "notes.txt")
            self.assertEqual(tree(disk), before)

    def test_report_into_a_mount_point(self):
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "out"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        with self.small_disk("16m", name="site") as site:
            for _ in range(2):
                self.expect(simverify("report", out, "--out", site), 0, "report:", stream="out")
                self.assertTrue((site / "index.html").is_file())
                self.assertFalse([p.name for p in site.iterdir() if p.name.startswith(".simverify-site-")])

    def test_report_on_a_full_disk_names_the_site(self):
        # It named the installed stylesheet it was copying from (shutil's error names the source).
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "out"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        with self.small_disk("1m") as disk:
            for free in (8, 6, 4):
                filler = disk / "filler"
                filler.unlink(missing_ok=True)
                available = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize // 1024
                with open(filler, "wb") as f:
                    f.write(b"\0" * (max(available - free, 0) * 1024))
                run = self.expect(simverify("report", out, "--out", disk / "site"), 2,
                                  "No space left on device")
                self.assertIn(str(disk / "site"), run.err)
                self.assertNotIn("reports/static", run.err)
                self.assertEqual(sorted(p.name for p in disk.iterdir()), ["filler"])

    def test_files_inside_series_and_figures_are_not_deleted(self):
        # Only names simverify writes there are its: series/<id>/*.csv, figures/<id>/*.gv.
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "out"
        whole = self.dir / "whole"
        for folder in (out, self.dir / "other", whole):
            self.expect(simverify("run", pack, "--out", folder, "--no-progress"), 0, stream="out")
        series_folder = next((out / "series").iterdir())
        cases = (("series/notes.txt", lambda: self.write("out/series/notes.txt", "mine\n")),
                 ("figures/mine.txt", lambda: self.write("out/figures/mine.txt", "mine\n")),
                 (f"series/{series_folder.name}/notes.txt",
                  lambda: self.write(f"out/series/{series_folder.name}/notes.txt", "mine\n")),
                 ("series/old-run", lambda: shutil.move(self.dir / "other", out / "series" / "old-run")))
        for name, put in cases:
            put()
            before = tree(out)
            for args in (("run", pack, "--out", out, "--no-progress"), ("merge", whole, "--out", out)):
                run = simverify(*args)
                self.assertEqual(run.rc, 2, (name, run))
                self.assertIn(str(out / name), run.err)
                self.assertEqual(tree(out), before, name)
            path = out / name
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")

    def test_results_and_report_inputs_inside_a_site_are_refused(self):
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "out"
        site = self.dir / "site"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        self.expect(simverify("report", out, "--out", site), 0, stream="out")
        for args in (("run", pack, "--out", site / "res-2", "--no-progress"),
                     ("merge", out, "--out", site / "plots" / "res")):
            self.expect(simverify(*args), 2, "is inside the report site")
            self.assertFalse((site / "res-2").exists())
            self.assertFalse((site / "plots" / "res").exists())
        # The report's own inputs kept in the site it replaces: read, then deleted with it.
        before = tree(site)
        shutil.copytree(out, site / "baseline")
        self.write("site/coverage.json",
                   '{"line":{"covered":9,"total":10},"branch":{"covered":9,"total":10}}')
        for args, needle in ((("--baseline", site / "baseline"), "--baseline"),
                             (("--coverage", site / "coverage.json"), "--coverage"),
                             (("--history", site / "baseline"), "--history")):
            self.expect(simverify("report", out, *args, "--out", site), 2, needle,
                        "is inside the report site")
        self.assertTrue((site / "baseline" / "results.json").is_file())
        # Anything else the renderer did not write is refused too.
        shutil.rmtree(site / "baseline")
        (site / "coverage.json").unlink()
        for name in ("notes.txt", "plots/notes.txt", "requirements/old"):
            self.write(f"site/{name}", "mine\n")
            self.expect(simverify("report", out, "--out", site), 2, name, "did not write")
            (site / name).unlink()
        self.assertEqual(tree(site), before)
        self.expect(simverify("report", out, "--out", site), 0, stream="out")

    def test_a_refused_run_leaves_an_empty_folder_empty(self):
        # The staging name beside a 255-byte name is too long: the run is refused after it made
        # the marker, which stayed and made the empty folder pass as a results folder.
        pack = self.write("pack.yaml", PACK)
        empty = self.dir / ("M" * 255)
        empty.mkdir()
        whole = self.dir / "whole"
        self.expect(simverify("run", pack, "--out", whole, "--no-progress"), 0, stream="out")
        for args in (("run", pack, "--out", empty, "--no-progress"), ("merge", whole, "--out", empty)):
            self.expect(simverify(*args), 2, "File name too long")
            self.assertEqual(list(empty.iterdir()), [], args)
        if os.geteuid() == 0:  # as a user who may write the folder but not beside it
            import pwd
            try:
                nobody = pwd.getpwnam("nobody")
            except KeyError:
                return
            as_nobody = dict(user=nobody.pw_uid, group=nobody.pw_gid, extra_groups=[])
            try:  # the build may sit in a folder only root may enter (a CI runner's clone)
                subprocess.run([SIMVERIFY, "--version"], capture_output=True, cwd="/",
                               check=True, **as_nobody)
            except (PermissionError, subprocess.CalledProcessError):
                return
            os.chmod(self.dir, 0o755)
            locked = self.dir / "locked"
            (locked / "out").mkdir(parents=True)
            os.chown(locked / "out", nobody.pw_uid, nobody.pw_gid)
            os.chmod(pack, 0o644)
            proc = subprocess.run([SIMVERIFY, "run", str(pack), "--out", str(locked / "out"),
                                   "--no-progress"], capture_output=True, text=True, cwd="/",
                                  **as_nobody)
            self.assertEqual(proc.returncode, 2, proc)
            self.assertEqual(list((locked / "out").iterdir()), [])

    def test_runs_started_together_into_a_new_folder(self):
        # Both saw no folder; the one refused by the lock deleted the folder the other wrote.
        self.write("pk/sim.py", "import json, sys, time\njson.load(sys.stdin); time.sleep(0.3)\n"
                   "print(json.dumps({'measures': {'v': 1.0}}))\n")
        pack = self.write("pk/p.yaml", """\
requirements:
  - id: SLOW
    title: slow program
    level: unit
    component: command
    command: [python3, sim.py]
    measures: [v]
    conditions: {d: [1]}
    quality: {measure: v, threshold: "<= 5"}
""")
        out = self.dir / "out"
        for attempt in range(40):
            shutil.rmtree(out, ignore_errors=True)
            procs = [subprocess.Popen([SIMVERIFY, "run", str(pack), "--out", str(out), "--no-progress"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                     for _ in range(2)]
            runs = [(p.wait(), p.stdout.read(), p.stderr.read()) for p in procs]
            for p in procs:
                p.stdout.close()
                p.stderr.close()
            self.assertIn(0, [rc for rc, _, _ in runs], (attempt, runs))
            self.assertTrue((out / "results.json").is_file(), (attempt, runs))
            self.assertFalse([p for p in self.dir.iterdir() if ".results-" in p.name], runs)

    def check_full_disk(self, merge):
        with self.small_disk("48k") as disk:
            self.check_failed_write(disk, "No space left on device", merge=merge)

    @contextlib.contextmanager
    def small_disk(self, size, name="disk"):
        """A tmpfs of `size` at self.dir/`name` (skipped where it cannot be mounted), unmounted
        whatever the test does."""
        if os.geteuid() != 0:
            self.skipTest("mounting a small tmpfs needs root")
        disk = self.dir / name
        disk.mkdir(parents=True, exist_ok=True)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(disk)],
                                 capture_output=True)
        if mounted.returncode != 0:
            self.skipTest(f"cannot mount a tmpfs here: {mounted.stderr!r}")
        try:
            yield disk
        finally:
            subprocess.run(["umount", str(disk)], check=True)


class StandardOutputFull(HostileCase):
    """A standard output that takes nothing (/dev/full) is an error, never a silent success:
    commands whose product is the console exit 2; run, merge, gate and report keep the exit
    code of their decision, since their files were written, and say what was lost."""

    def into_dev_full(self, *args):
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full here")
        with open("/dev/full", "w") as full:
            proc = subprocess.run([SIMVERIFY, *map(str, args)], stdout=full,
                                  stderr=subprocess.PIPE, text=True)
        return proc

    def test_console_commands_exit_2(self):
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "out"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        for args in (("list", pack), ("validate", pack), ("--version",), ("help", "run"),
                     ("diff", out, out), ("diagram", DIAGRAM)):
            proc = self.into_dev_full(*args)
            self.assertEqual(proc.returncode, 2, (args, proc))
            self.assertIn("cannot write the standard output: No space left on device",
                          proc.stderr, args)

    def test_run_keeps_its_verdict_and_its_files(self):
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "out"
        proc = self.into_dev_full("run", pack, "--out", out, "--no-progress")
        self.assertEqual(proc.returncode, 0, proc)
        self.assertIn("cannot write the standard output", proc.stderr)
        self.assertTrue(results(out)["complete"])
        proc = self.into_dev_full("gate", out)
        self.assertEqual(proc.returncode, 0, proc)
        self.assertIn("the exit code stands", proc.stderr)

    def test_closed_standard_streams(self):
        # `>&-`: fd 1 closed would be the next file's number, and the console would write
        # into that file. The streams are held open on /dev/null; a closed stdout is said.
        pack = self.write("pack.yaml", PACK)
        out = self.dir / "out"
        for closed in ((1,), (1, 2)):
            def close():
                for fd in closed:
                    os.close(fd)
            for _ in range(2):  # a new folder, then a rerun into it
                proc = subprocess.run([SIMVERIFY, "run", pack, "--out", out, "--no-progress",
                                       "--verbose"], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      text=True, preexec_fn=close)
                self.assertEqual(proc.returncode, 0, proc)
                if closed == (1,):
                    self.assertIn("cannot write the standard output: it is closed", proc.stderr)
                self.assertTrue(results(out)["complete"])
                for path, data in tree(out).items():
                    self.assertNotIn(b"HOSTILE-OUT  (", data, path)  # a console line
        proc = subprocess.run([SIMVERIFY, "list", pack], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1))
        self.assertEqual(proc.returncode, 2, proc)
        self.assertIn("it is closed", proc.stderr)

    def test_a_closed_pipe_does_not_end_a_run(self):
        # `simverify run ... | head -1`: the reader is gone before the run ends. The run is
        # not killed by SIGPIPE half-way; it writes its results and keeps its verdict (1 here).
        pack = self.write("pack.yaml", PACK.replace("<= 0.5", "<= 1e-9"))
        out = self.dir / "out"
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            proc = subprocess.run([SIMVERIFY, "run", pack, "--out", out, "--no-progress",
                                   "--verbose"], stdout=write_end, stderr=subprocess.PIPE,
                                  text=True)
        finally:
            os.close(write_end)
        self.assertEqual(proc.returncode, 1, proc)
        self.assertIn("cannot write the standard output", proc.stderr)
        doc = results(out)
        self.assertTrue(doc["complete"])
        self.assertFalse(doc["releasable"])


if __name__ == "__main__":
    unittest.main()
