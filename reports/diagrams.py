"""The block diagrams a requirement runs, drawn on its page.

The runner writes each diagram a requirement's `model` axis names as Graphviz DOT
(results.json: the requirement's "figures", files under figures/ beside it); here Debian's
Graphviz `dot -Tsvg` renders them into the site. Without `dot` on PATH, or when it fails, the
page still renders: it says why and links the DOT text, copied into the site.

The DOT files come from the results folder, which anyone may have edited: a figure is read
only when it is a regular file inside that folder (never a FIFO, never through a link out of
it), `dot` runs with file loading off (SERVER_NAME set: no `image=` reads a file of this
machine), and the links DOT can put in an SVG (`URL`, `href`: `javascript:` among them) are
removed from it. Our own diagrams have none.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from model import Requirement, read_regular_text

# A diagram of a thousand blocks lays out in seconds; a hung `dot` must not hang the report.
DOT_TIMEOUT_SECONDS = 120
# The largest DOT file drawn: a thousand blocks take about 200 kB.
MAX_DOT_BYTES = 16 << 20
# An SVG link's target, as dot writes it (attribute values are quoted, quotes escaped).
SVG_LINK = re.compile(rb'\s(?:xlink:)?(?:href|target)="[^"]*"')


def figure_text(results_dir: Path, relative: str) -> str | None:
    """The DOT text of a figure inside the results folder; None when it is outside it (a link
    out), not a regular file, too large or not UTF-8."""
    base = results_dir.resolve()
    path = (base / relative).resolve()
    if base not in path.parents:
        return None
    return read_regular_text(path, MAX_DOT_BYTES)


def requirement_diagrams(r: Requirement, results_dir: Path, folder: Path) -> list[dict[str, Any]]:
    """Per figure: its title and either `svg` (the SVG, relative to the site) or `dot` (the
    DOT file copied into the site) with a `note` saying why there is no picture."""
    dot = shutil.which("dot")
    drawn = []
    for k, figure in enumerate(r.figures):
        entry: dict[str, Any] = {"title": figure["title"], "svg": None, "dot": None, "note": ""}
        name = f"{r.slug}-diagram{k}"
        dot_text = figure_text(results_dir, figure["file"])
        if dot_text is None:
            entry["note"] = (f"The diagram's DOT file {figure['file']} cannot be read: it must be a regular "
                             "UTF-8 file inside the results folder.")
            drawn.append(entry)
            continue
        text = dot_text.encode("utf-8")
        if dot is None:
            entry["note"] = "Graphviz is not installed (no dot on PATH), so the diagram is not drawn."
        else:
            try:
                run = subprocess.run([dot, "-Tsvg"], input=text, capture_output=True,
                                     timeout=DOT_TIMEOUT_SECONDS, check=False,
                                     env={**os.environ, "SERVER_NAME": "simverify-report"})
                if run.returncode == 0 and run.stdout:
                    (folder / f"{name}.svg").write_bytes(SVG_LINK.sub(b"", run.stdout))
                    entry["svg"] = f"plots/{name}.svg"
                else:
                    message = run.stderr.decode("utf-8", "replace").strip().splitlines()
                    entry["note"] = f"dot failed (exit {run.returncode}){': ' + message[0] if message else ''}."
            except (OSError, subprocess.TimeoutExpired) as error:
                entry["note"] = f"dot could not run: {error}."
        if entry["svg"] is None:
            (folder / f"{name}.gv").write_bytes(text)
            entry["dot"] = f"plots/{name}.gv"
        drawn.append(entry)
    return drawn
