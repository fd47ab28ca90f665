#!/usr/bin/python3
"""ci/unity-names: what breaks a unity batch is reported, what does not is not (exit 1 / 0)."""

import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[3] / "ci" / "unity-names"

STEPPER = """namespace {

constexpr double kMu = 0.012277471;

double exact(double t) { return t; }

}  // namespace
"""


class UnityNames(unittest.TestCase):
    def check(self, **sources: str) -> subprocess.CompletedProcess:
        with tempfile.TemporaryDirectory() as folder:
            paths = []
            for name, text in sources.items():
                path = Path(folder) / f"{name}.cpp"
                path.write_text(text)
                paths.append(str(path))
            return subprocess.run([sys.executable, str(SCRIPT), *paths], capture_output=True, text=True)

    def test_the_same_file_scope_name_in_two_sources_is_reported(self) -> None:
        result = self.check(a=STEPPER, b="namespace {\n\nconstexpr double kMu = 1.0;\n\n}  // namespace\n")
        self.assertEqual(result.returncode, 1)
        self.assertIn("'kMu' is defined at file scope in", result.stdout)

    def test_a_local_constant_shadowing_another_sources_constant_is_reported(self) -> None:
        # In a batch where a.cpp comes first, GCC's -Wshadow flags the local: both are in the
        # translation unit's one anonymous namespace.
        local = "namespace {\n\ndouble f() {\n  constexpr double kMu = 1.0;\n  return kMu;\n}\n\n}  // namespace\n"
        result = self.check(a=STEPPER, b=local)
        self.assertEqual(result.returncode, 1)
        self.assertIn("'kMu' is a local constant in b.cpp and defined at file scope in a.cpp", result.stdout)

    def test_what_gcc_does_not_flag_passes(self) -> None:
        # A local outside the anonymous namespace (a TEST body) does not see its names as
        # enclosing; a local variable named like a function shadows nothing -Wshadow reports.
        outside = "TEST(A, B) {\n  constexpr double kMu = 1.0;\n  (void)kMu;\n}\n"
        function_named = "namespace {\n\nvoid g() {\n  const double exact = 2.0;\n  (void)exact;\n}\n\n}  // namespace\n"
        result = self.check(a=STEPPER, b=outside, c=function_named)
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertEqual(result.stdout, "")


if __name__ == "__main__":
    unittest.main()
