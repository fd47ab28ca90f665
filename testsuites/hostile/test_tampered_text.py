"""Text in a tampered results.json: bytes that are not UTF-8 are refused by every reader (gate,
diff, merge, report) with file:line:col and exit 2, never thrown on by a writer; control
characters (a terminal's escape sequences, line breaks) never reach the terminal raw."""
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


if __name__ == "__main__":
    unittest.main()
