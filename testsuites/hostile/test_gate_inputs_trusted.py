"""What the gate is given besides results.json must not make it weaker or lose its decision:
the project file beside requirement files named with --requirements, lcov tracefiles with one
section per test, CTest's tests that could not run or were disabled, shards of two commits,
a --json that would replace what the gate judges, a --json - nobody receives, and a coverage
just under its bar. Each test fails on the simverify these holes were found in (62d2cdc)."""
import json
import os
import shutil
import subprocess
import unittest

from support import SIMVERIFY, HostileCase, simverify

PACK = """\
requirements:
  - id: B-ERR
    title: euler
    level: unit
    component: simulate
    conditions: {model: exponential, method: ode1, h: [0.01, 0.02], tf: 1.0, p.lambda: [-1.0]}
    quality: {measure: "rms(y.x)", threshold: "<= 10"}
"""


class GateInputsTrusted(HostileCase):
    def run_pack(self, settings=None, out="out", rc=0):
        self.write("pk/p.yaml", PACK)
        if settings is not None:
            self.write("pk/simverify.yaml", settings)
        self.expect(simverify("run", self.dir / "pk", "--out", self.dir / out, "--no-progress"),
                    rc, stream="out")
        return self.dir / out

    def edit_results(self, out, edit):
        path = out / "results.json"
        doc = json.loads(path.read_text())
        edit(doc)
        path.write_text(json.dumps(doc, indent=1))

    def test_requirement_files_keep_their_project_file(self):
        # The run applies the gate's level rule too: no system requirement ran (exit 1).
        out = self.run_pack("gate:\n  levels: [unit, system]\n  coverage: {line: 80}\n", rc=1)
        pack = self.dir / "pk" / "p.yaml"
        honest = self.expect(simverify("gate", out, "--requirements", pack), 1, stream="out")
        self.assertIn(f"gate settings: {self.dir / 'pk' / 'simverify.yaml'}", honest.out)
        lenient = self.write("elsewhere/simverify.yaml", "gate: {}\n")
        for forged in (None, str(lenient)):
            self.edit_results(out, lambda d: d["plan"].__setitem__("project_file", forged))
            for args in ((), ("--requirements", pack), ("--requirements", self.dir / "pk")):
                run = simverify("gate", out, *args)
                self.assertEqual(run.rc, 1, (forged, args, run))
                self.assertIn("FAIL level system is required by the gate", run.out)
                self.assertIn("FAIL the line coverage bar is 80.0%", run.out)

    def test_run_of_a_file_records_the_project_file_beside_it(self):
        self.write("pk/p.yaml", PACK)
        self.write("pk/simverify.yaml", "gate:\n  levels: [system]\n")
        out = self.dir / "out"
        # The run holds itself to the project file beside the file: no system requirement ran.
        self.expect(simverify("run", self.dir / "pk" / "p.yaml", "--out", out, "--no-progress"),
                    1, "FAIL level system is required", stream="out")
        doc = json.loads((out / "results.json").read_text())
        self.assertEqual(doc["plan"]["project_file"], str(self.dir / "pk" / "simverify.yaml"))
        self.expect(simverify("gate", out), 1, "FAIL level system is required", stream="out")

    def test_lcov_sections_per_test_count_each_line_once(self):
        out = self.run_pack("gate:\n  coverage: {line: 50}\n")
        sections = ["TN:test1", f"SF:{self.dir}/core.c"]
        sections += [f"DA:{line},0" for line in range(1, 43)] + ["LF:42", "LH:0", "end_of_record"]
        for test in range(1, 12):
            sections += [f"TN:test{test}", f"SF:{self.dir}/util.c"]
            sections += [f"DA:{line},1" for line in range(1, 6)] + ["LF:5", "LH:5", "end_of_record"]
        info = self.write("total.info", "\n".join(sections) + "\n")
        run = self.expect(simverify("gate", out, "--coverage", info), 1, stream="out")
        self.assertIn("line coverage 10.6% (5 of 47) is below the test-ready bar 50.0%", run.out)

    def ctest_junit(self, cmake_lists):
        if not shutil.which("ctest") or not shutil.which("cmake"):
            self.skipTest("no cmake/ctest here")
        self.write("proj/CMakeLists.txt", cmake_lists)
        subprocess.run(["cmake", "-S", self.dir / "proj", "-B", self.dir / "build"],
                       capture_output=True, check=True)
        junit = self.dir / "ctest-junit.xml"
        subprocess.run(["ctest", "--test-dir", self.dir / "build", "--output-junit", junit],
                       capture_output=True, check=False)
        return junit

    def test_a_ctest_test_that_could_not_run_fails(self):
        out = self.run_pack()
        junit = self.ctest_junit("""\
cmake_minimum_required(VERSION 3.16)
project(t NONE)
enable_testing()
add_test(NAME solver_tests COMMAND true)
add_test(NAME fmu_tests COMMAND ${CMAKE_BINARY_DIR}/fmu_tests_not_built)
add_test(NAME skips_itself COMMAND sh -c "exit 77")
set_tests_properties(skips_itself PROPERTIES SKIP_RETURN_CODE 77)
""")
        run = self.expect(simverify("gate", out, "--tests", junit), 1, stream="out")
        self.assertIn("1 of 3 test(s) could not run in", run.out)
        self.assertIn("fmu_tests (not run: Unable to find executable)", run.out)
        self.assertNotIn("skips_itself", run.out)

    def test_disabled_ctest_tests_pass_nothing(self):
        out = self.run_pack()
        junit = self.ctest_junit("""\
cmake_minimum_required(VERSION 3.16)
project(t NONE)
enable_testing()
add_test(NAME solver_tests COMMAND false)
add_test(NAME fmu_tests COMMAND false)
set_tests_properties(solver_tests fmu_tests PROPERTIES DISABLED TRUE)
""")
        self.expect(simverify("gate", out, "--tests", junit), 1,
                    "ran: all 2 were skipped (2 disabled)", stream="out")

    def test_merge_refuses_shards_of_two_commits(self):
        self.write("pk/p.yaml", PACK)
        shards = []
        for index, commit in ((1, "1" * 40), (2, "2" * 40)):
            shard = self.dir / f"shard-{index}"
            proc = subprocess.run([SIMVERIFY, "run", self.dir / "pk", "--shard", f"{index}/2",
                                   "--out", shard, "--no-progress"], capture_output=True,
                                  text=True, env={**os.environ, "CI_COMMIT_SHA": commit})
            self.assertEqual(proc.returncode, 0, proc.stderr)
            shards.append(shard)
        self.expect(simverify("merge", *shards, "--out", self.dir / "all"), 2,
                    "records commit 111111111111 but", "records commit 222222222222")
        self.assertFalse((self.dir / "all").exists())

    def test_gate_json_never_replaces_what_it_judges(self):
        out = self.run_pack()
        info = self.write("cov.info", "SF:a.c\nDA:1,1\nend_of_record\n")
        before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
        self.assertIn(out / "results.json", before)
        for target in [*before, out / "new.json", out, info]:
            run = simverify("gate", out, "--coverage", info, "--json", target)
            self.assertEqual(run.rc, 2, (target, run))
            self.assertIn("--json", run.err)
        self.assertEqual({p: p.read_bytes() for p in out.rglob("*") if p.is_file()}, before)
        self.assertEqual(info.read_text(), "SF:a.c\nDA:1,1\nend_of_record\n")
        self.expect(simverify("gate", out, "--json", self.dir / "gate.json"), 0, stream="out")
        self.assertTrue(json.loads((self.dir / "gate.json").read_text())["releasable"])

    def test_gate_json_dash_with_standard_output_closed(self):
        out = self.run_pack()
        proc = subprocess.run([SIMVERIFY, "gate", out, "--json", "-"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1))
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("--json -: cannot write the decision to standard output: it is closed",
                      proc.stderr)

    def test_a_coverage_below_the_bar_never_reads_as_the_bar(self):
        out = self.run_pack("gate:\n  coverage: {line: 80}\n")
        summary = self.write("summary.json", json.dumps(
            {"line": {"covered": 79996, "total": 100000, "percent": 80.0}}))
        gate_json = self.dir / "gate.json"
        run = self.expect(simverify("gate", out, "--coverage", summary, "--json", gate_json), 1,
                          stream="out")
        self.assertIn("line coverage 79.996% (79996 of 100000) is below the test-ready bar 80.0%",
                      run.out)
        self.assertEqual(json.loads(gate_json.read_text())["coverage"]["line"]["text"], "79.996%")


if __name__ == "__main__":
    unittest.main()
