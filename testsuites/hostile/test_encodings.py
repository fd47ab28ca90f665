"""Text that reports cannot hold: XML-illegal characters (U+FFFE, U+FFFF, C0 controls other
than tab, LF and CR) and bytes that are not UTF-8. In a requirement file they are refused at
load with file:line:col, also when a quoted scalar makes them with an escape; from a
component at run time (its message is not ours to choose) they become U+FFFD, so
results.json stays valid JSON, junit.xml valid XML and the HTML report renders."""
import json
import unittest
import xml.etree.ElementTree as ElementTree

from support import HostileCase, results, simverify

REQUIREMENT = """\
requirements:
  - id: ENCODING-{n}
    title: {title}
    description: {description}
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode1
      h: 0.01
      tf: 1.0
    quality:
      measure: error_end
      threshold: "<= 0.5"
"""

# A program whose point fails with a message full of what neither JSON nor XML can hold: bytes
# that are not UTF-8 (0xff, a truncated sequence), U+FFFE, U+FFFF and controls.
HOSTILE_PROGRAM = r"""
import sys
sys.stdin.read()
sys.stderr.buffer.write(b"bad \xff \xe2\x82 \xef\xbf\xbe \xef\xbf\xbf \x01\x07\x1b[31m\n"
                        b"verdict: RELEASABLE\r\n end")
sys.exit(3)
"""

COMMAND_PACK = """\
requirements:
  - id: ENCODING-RUNTIME
    title: a program that speaks in broken bytes
    level: unit
    component: command
    command: [python3, hostile.py]
    measures: [y]
    conditions:
      tag: ["caf\\u00e9", plain]
    quality: {measure: y, threshold: "<= 1"}
"""

REPLACEMENT = "\ufffd"


def forbidden(text):
    """The characters XML 1.0 forbids in `text` (what must never be written)."""
    return [c for c in text
            if not (c in "\t\n\r" or 0x20 <= ord(c) <= 0xD7FF or 0xE000 <= ord(c) <= 0xFFFD
                    or 0x10000 <= ord(c) <= 0x10FFFF)]


class RefusedAtLoad(HostileCase):
    def check_refused(self, title, description, line, column, needle):
        pack = self.dir / "pack.yaml"
        pack.write_bytes(REQUIREMENT.format(n=1, title=title, description=description)
                         .encode("utf-8", "surrogateescape"))
        for command in ("validate", "run"):
            run = simverify(command, pack, "--out", self.dir / "out") if command == "run" \
                else simverify(command, pack)
            self.expect(run, 2, f"pack.yaml:{line}:{column}:", needle)
        self.assertFalse((self.dir / "out").exists())

    def test_raw_bytes_and_characters(self):
        # The file's bytes themselves: not UTF-8, U+FFFE, U+FFFF, a control character.
        self.check_refused("caf\udcff", "ok", 3, 15, "invalid UTF-8 (byte 0xff)")
        self.check_refused("a\ufffeb", "ok", 3, 13, "U+FFFE is not allowed")
        self.check_refused("ok", "x\uffff", 4, 19, "U+FFFF is not allowed")
        self.check_refused("bell\x07", "ok", 3, 16, "U+0007 is not allowed")

    def test_escapes_in_quoted_text(self):
        # The bytes are plain ASCII; the escapes make the characters. The place is the text's.
        for escape, code in (("\\uFFFE", "U+FFFE"), ("\\uFFFF", "U+FFFF"), ("\\x01", "U+0001"),
                             ("\\e", "U+001B"), ("\\0", "U+0000")):
            self.check_refused(f'"a {escape} b"', "ok", 3, 12, f"{code} is not allowed")
            self.check_refused("ok", f'"{escape}"', 4, 18, f"{code} is not allowed")

    def test_escapes_in_ids_conditions_and_keys(self):
        pack = self.write("pack.yaml", """\
requirements:
  - id: ENCODING-KEYS
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode1
      h: 0.01
      tf: 1.0
      "p.\\x02": 1.0
    quality:
      measure: error_end
      threshold: "<= 0.5"
    trace: {source: "doc \\uFFFF"}
""")
        self.expect(simverify("validate", pack), 2, "pack.yaml:10:7:", "U+0002 is not allowed",
                    "pack.yaml:14:21:", "U+FFFF is not allowed")

    def test_allowed_characters_pass(self):
        # Tab, line breaks, non-ASCII text and characters beyond the BMP are text like any.
        pack = self.write("pack.yaml", REQUIREMENT.format(
            n=2, title='"tab\\there \\u00e9 \\U0001D11E"', description="'€ 𝄞 ä'"))
        self.expect(simverify("run", pack, "--out", self.dir / "out", "--no-progress",
                              "--junit-points"), 0, stream="out")
        doc = results(self.dir / "out")
        self.assertEqual(doc["requirements"][0]["title"], "tab\there \u00e9 \U0001D11E")
        ElementTree.parse(self.dir / "out" / "junit.xml")


class EscapedAtRunTime(HostileCase):
    def test_component_message_is_written_as_valid_json_xml_and_html(self):
        self.write("hostile.py", HOSTILE_PROGRAM)
        pack = self.write("pack.yaml", COMMAND_PACK)
        out = self.dir / "out"
        # The console prints the message by the same rule (the helper decodes its output as
        # strict UTF-8), so the program cannot recolour the terminal either.
        # Its standard error reaches the reason escaped by the one rule (terminal_text): bytes
        # that are no UTF-8 as \xff, control characters as \u0001; U+FFFE and U+FFFF, which
        # are UTF-8, become U+FFFD as every writer makes them.
        escaped = ("bad \\xff \\xe2\\x82 " + REPLACEMENT + " " + REPLACEMENT +
                   " \\u0001\\u0007\\u001b[31m\\u000averdict: RELEASABLE\\u000d\\u000a end")
        run = self.expect(simverify("run", pack, "--out", out, "--no-progress", "--junit-points",
                                    "--verbose"), 1, escaped, stream="out")
        self.assertEqual(forbidden(run.out), [])
        # Its line breaks are shown, not obeyed: no console line of its own.
        self.assertNotIn("verdict: RELEASABLE", run.out.splitlines())
        self.assertIn("[31m\\u000averdict: RELEASABLE\\u000d\\u000a end", run.out)

        raw = (out / "results.json").read_bytes()
        raw.decode("utf-8")  # strict: raises on any byte that is not UTF-8
        doc = results(out)
        points = doc["requirements"][0]["points"]
        self.assertEqual(len(points), 2)
        for point in points:
            error = point["error"]
            self.assertIn(escaped, error)
            self.assertEqual(forbidden(error), [], error)
            self.assertEqual(error.count(REPLACEMENT), 2, error)  # U+FFFE and U+FFFF
        self.assertEqual(points[0]["condition"]["tag"], "caf\u00e9")

        junit = (out / "junit.xml").read_bytes().decode("utf-8")
        self.assertEqual(forbidden(junit), [])
        tree = ElementTree.parse(out / "junit.xml")
        errors = [e.get("message") for e in tree.iter("error")]
        self.assertEqual(len(errors), 3, errors)  # the requirement and its two points
        self.assertTrue(all(escaped in e for e in errors), errors)
        self.assertIn("point 0: tag=caf\u00e9", [c.get("name") for c in tree.iter("testcase")])

        site = self.dir / "site"
        self.expect(simverify("report", out, "--out", site), 0, stream="out")
        html = (site / "index.html").read_bytes().decode("utf-8")
        self.assertEqual(forbidden(html), [])
        self.assertIn("ENCODING-RUNTIME", html)

        # The gate's JSON decision carries the reason too.
        self.expect(simverify("gate", out, "--json", self.dir / "gate.json"), 1, stream="out")
        gate = (self.dir / "gate.json").read_bytes().decode("utf-8")
        self.assertEqual(forbidden(json.loads(gate) and gate), [])
        self.assertIn("ENCODING-RUNTIME", gate)

if __name__ == "__main__":
    unittest.main()
