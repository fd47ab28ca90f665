"""Numbers are numbers: `--timeout`, `--jobs` and `--shard` on the command line and every
numeric field of a requirement file take plain decimal text only. `5s`, `0x10`, `nan`, `inf`,
a timeout the clock cannot hold (`1e10`, which timed a 0.3 ms point out) or a negative one are
refused up front, by validate as by run, with the option or the field and its place."""
import unittest

from support import HostileCase, results, simverify

PACK = """\
requirements:
  - id: NUMBERS-{n}
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode1
      h: {h}
      tf: 1.0
      seed: {seed}
    quality:
      measure: error_end
      threshold: "{threshold}"
"""

COMMAND_PACK = """\
requirements:
  - id: NUMBERS-COMMAND
    level: unit
    component: command
    command: [sh, -c, 'echo "{{\\"measures\\": {{\\"x\\": 0}}}}"']
    measures: [x]
    conditions:
      seed: {seed}
    quality:
      measure: x
      threshold: "<= 1"
"""


def pack_text(n=1, h="0.01", seed="7", threshold="<= 0.5"):
    return PACK.format(n=n, h=h, seed=seed, threshold=threshold)


class CommandLine(HostileCase):
    def test_timeout_must_be_a_number_the_clock_can_hold(self):
        pack = self.write("pack.yaml", pack_text())
        for value in ("1e10", "1e300", "-1", "0", "nan", "inf", "-inf", "5s", "0x10", " 5",
                      "1e-9", ""):
            self.expect(simverify("run", pack, "--timeout", value, "--out", self.dir / "out"),
                        2, "--timeout must be a number from 0.001 to 1e+06",
                        f"got '{value}'")
            self.assertFalse((self.dir / "out").exists(), value)

    def test_a_large_timeout_that_fits_lets_the_point_run(self):
        # 1e6 s is the largest the runner accepts; the point takes well under a millisecond
        # and passes (1e10 used to overflow into an immediate timeout).
        pack = self.write("pack.yaml", pack_text())
        out = self.dir / "out"
        self.expect(simverify("run", pack, "--timeout", "1e6", "--out", out, "--no-progress"), 0,
                    stream="out")
        point = results(out)["requirements"][0]["points"][0]
        self.assertIsNone(point["error"])
        self.assertTrue(point["passed"])

    def test_jobs_and_shard_are_whole_numbers(self):
        pack = self.write("pack.yaml", pack_text())
        for option, value, needle in (
                ("--jobs", "2x", "--jobs must be a whole number"),
                ("--jobs", "0x2", "--jobs must be a whole number"),
                ("--jobs", "1.5", "--jobs must be a whole number"),
                ("--jobs", "0", "--jobs must be a whole number from 1"),
                ("--jobs", "99999999999", "--jobs must be a whole number"),
                # Each job is a process with its own pipes: a bound, named in the message.
                ("--jobs", "1025", "--jobs must be a whole number from 1 to 1024"),
                ("--shard", "1/0x2", "--shard N must be a whole number"),
                ("--shard", "+1/2", "--shard I must be a whole number"),
                ("--shard", "3/2", "--shard I must be a whole number from 1 to 2"),
                ("--shard", "1/2/3", "--shard N must be a whole number")):
            self.expect(simverify("run", pack, option, value, "--out", self.dir / "out"), 2,
                        needle, f"got '")
            self.assertFalse((self.dir / "out").exists(), (option, value))


class RequirementFields(HostileCase):
    def check(self, text, *needles):
        pack = self.write("pack.yaml", text)
        for command in ("validate", "run"):
            args = (command, pack) if command == "validate" else (command, pack, "--out",
                                                                  self.dir / "out")
            self.expect(simverify(*args), 2, *needles)
        self.assertFalse((self.dir / "out").exists())

    def test_conditions(self):
        for h in ("5s", "0x10", "1_000"):
            self.check(pack_text(h=h), "pack.yaml:8:10:", "condition 'h'",
                       f"found the text '{h}'", "no units, no hexadecimal")
        # A number YAML reads, but no double holds: said so at its place, not taken as text.
        self.check(pack_text(h="1e999"), "pack.yaml:8:10:",
                   "the number 1e999 is out of the range of a double")
        self.check(pack_text(h=".nan"), "pack.yaml:8:10:", "positive finite number")

    def test_generators(self):
        self.check(pack_text(h="{linspace: [0x1, 2, 3]}"), "pack.yaml:8:10:", "finite numbers",
                   "0x1")
        self.check(pack_text(h="{logspace: [-3, -1, 3s]}"), "pack.yaml:8:10:", "3s")

    def test_threshold(self):
        for threshold in ("<= 5s", "<= 0x10", "<= 1e999", ">= nan"):
            self.check(pack_text(threshold=threshold), "pack.yaml:13:18:",
                       f"threshold '{threshold}'", "finite number")

    def test_seed_is_a_whole_number(self):
        # Any other seed would be replaced by a derived one without a word.
        for seed in ("-3", "1.5", "1e30", "5s"):
            self.check(pack_text(seed=seed), "pack.yaml:10:13:", "condition 'seed'")
        self.check(pack_text(seed="1.5"), "whole number from 0 to 2^64 - 1")

    def test_seed_is_a_whole_number_for_every_component(self):
        # The `command` component hands the point's seed to its program (SIMVERIFY_SEED and
        # the point's JSON); a seed it cannot hand on used to be replaced by a derived one.
        for seed, found in (("1.5", "a number 1.5"), ("-3", "a number -3"),
                            ("1e30", "a number 1e+30"), ('"7"', "a string 7"),
                            ("{linspace: [0, 1, 3]}", "a number 0.5")):
            self.check(COMMAND_PACK.format(seed=seed), "pack.yaml:8:13:", "condition 'seed'",
                       "a seed must be a whole number from 0 to 2^64 - 1", found)
        pack = self.write("pack.yaml", COMMAND_PACK.format(seed="[0, 18446744073709549568]"))
        self.expect(simverify("validate", pack), 0, stream="out")
        # A whole seed reaches the program as written.
        pack = self.write("pack.yaml", COMMAND_PACK.format(seed="[0, 12345]").replace(
            '\\"x\\": 0', '\\"x\\": $SIMVERIFY_SEED').replace("<= 1", "<= 1e9"))
        out = self.dir / "out"
        self.expect(simverify("run", pack, "--out", out, "--no-progress"), 0, stream="out")
        points = results(out)["requirements"][0]["points"]
        self.assertEqual([p["quality"] for p in points], [0, 12345])


if __name__ == "__main__":
    unittest.main()
