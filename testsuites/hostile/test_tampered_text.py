"""Text in a tampered results.json: bytes that are not UTF-8 are refused by every reader (gate,
diff, merge, report) with file:line:col and exit 2, never thrown on by a writer; control
characters (a terminal's escape sequences, line breaks) never reach the terminal raw; a key
repeated in an object is refused, never read as its last value."""
import json
import unittest

from support import HostileCase, simverify

PACK = """\
requirements:
  - id: TAMPERED-TEXT
    title: fails at the largest step
    level: unit
    component: simulate
    conditions:
      model: exponential
      method: ode1
      h: [0.001, 0.1]
      tf: 1.0
    quality:
      measure: error_end
      threshold: "<= 0.005"
"""


class TamperedText(HostileCase):
    def setUp(self):
        super().setUp()
        pack = self.write("pack.yaml", PACK)
        self.base = self.dir / "base"
        self.assertEqual(simverify("run", pack, "--out", self.base, "--no-progress").rc, 1)
        self.doc = json.loads((self.base / "results.json").read_text())

    def tampered(self, name, text_bytes):
        folder = self.dir / name
        folder.mkdir()
        (folder / "results.json").write_bytes(text_bytes)
        return folder

    def commands(self, folder):
        return (("gate", folder), ("diff", self.base, folder), ("diff", "--json", self.base,
                                                                  folder),
                ("merge", folder, "--out", self.dir / "merged"),
                ("report", folder, "--out", self.dir / "site"))

    def test_bytes_that_are_not_utf8_are_refused_with_the_place(self):
        text = (self.base / "results.json").read_bytes()
        title = b'"title": "fails at the largest step"'
        self.assertIn(title, text)
        line = text[:text.index(title)].count(b"\n") + 1
        folder = self.tampered("bad", text.replace(title, title[:-1] + b' \xff\xe2\x82"'))
        for args in self.commands(folder):
            self.expect(simverify(*args), 2,
                        f"{folder / 'results.json'}:{line}:", "invalid UTF-8 (byte 0xff)")
        self.assertFalse((self.dir / "merged").exists())
        self.assertFalse((self.dir / "site").exists())

    def test_a_repeated_key_is_refused_with_the_place(self):
        # JSON readers keep the last of two equal keys: a second "status" after the run's
        # "failed", or a second "passed" in a point, would decide. Every reader refuses it.
        text = (self.base / "results.json").read_text()
        for written, repeated, key in (('"status": "failed"', '"status": "passed"', "status"),
                                       ('"passed": false', '"passed": true', "passed")):
            self.assertIn(written, text)
            at = text.index(written)
            line = text.count("\n", 0, at) + 1
            column = at - text.rfind("\n", 0, at) + len(written) + 2
            folder = self.tampered(key, (text[:at] + written + ", " + repeated +
                                         text[at + len(written):]).encode())
            for args in self.commands(folder):
                self.expect(simverify(*args), 2,
                            f"{folder / 'results.json'}:{line}:{column}: duplicate key '{key}'")
            self.assertFalse((self.dir / "merged").exists())
            self.assertFalse((self.dir / "site").exists())

    def assert_shown_not_obeyed(self, run):
        for stream in (run.out, run.err):
            self.assertNotIn("\x1b", stream, run)
            self.assertNotIn("\x07", stream, run)
            self.assertNotIn("\x9b", stream, run)
            for line in stream.splitlines():
                self.assertFalse(line.startswith("gate: RELEASABLE"), run)

    def test_control_characters_are_shown_not_obeyed(self):
        # An id, a reason and a status that would clear the screen, ring the bell and forge a
        # verdict line on a terminal; every console line quoting them escapes them.
        forged = "\x1b[2J\x07\ngate: RELEASABLE\x9b"
        doc = json.loads(json.dumps(self.doc))
        requirement = doc["requirements"][0]
        requirement["id"] += forged
        requirement["reason"] += forged
        folder = self.tampered("ids", json.dumps(doc).encode())
        gate = simverify("gate", folder)
        self.expect(gate, 1, "TAMPERED-TEXT\\u001b[2J\\u0007\\u000agate: RELEASABLE\\u009b",
                    "gate: NOT RELEASABLE", stream="out")
        self.assert_shown_not_obeyed(gate)
        diff = simverify("diff", self.base, folder)
        self.expect(diff, 0, "new       TAMPERED-TEXT\\u001b[2J", stream="out")
        self.assert_shown_not_obeyed(diff)
        report = simverify("report", folder, "--out", self.dir / "site")
        self.expect(report, 0, "report:", stream="out")
        self.assert_shown_not_obeyed(report)
        # In errors too: a status no run writes is named, escaped.
        requirement["status"] = "failed" + forged
        folder = self.tampered("status", json.dumps(doc).encode())
        for args in (("gate", folder), ("diff", self.base, folder)):
            run = self.expect(simverify(*args), 2, "status", "failed\\u001b[2J")
            self.assert_shown_not_obeyed(run)
        # A renderer's error quoting a path: an existing folder it will not replace.
        foreign = self.dir / "foreign\x1b[2J"
        foreign.mkdir()
        (foreign / "notes.txt").write_text("not a report")
        report = self.expect(simverify("report", self.base, "--out", foreign), 2,
                             "foreign\\u001b[2J: exists and is not a simverify report")
        self.assert_shown_not_obeyed(report)

    def test_each_error_of_a_project_file_is_a_line_of_its_own(self):
        # Several errors stay several lines; a key's escaped line break stays escaped.
        config = self.write("config.yaml", 'bogus: 1\n"a\\nb": 2\n')
        run = self.expect(simverify("gate", self.base, "--config", config), 2)
        lines = run.err.splitlines()
        self.assertEqual(len(lines), 3, run)  # and: no `gate:` section
        self.assertIn(f"simverify: {config}:1:1: error: unknown top-level key 'bogus'", lines[0])
        self.assertIn(f"simverify: {config}:2:1: error: unknown top-level key 'a\\u000ab'",
                      lines[1])


if __name__ == "__main__":
    unittest.main()
