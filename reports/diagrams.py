"""The block diagrams a requirement runs, drawn on its page.

The runner writes each diagram a requirement's `model` axis names as Graphviz DOT
(results.json: the requirement's "figures", files under figures/ beside it); here Debian's
Graphviz `dot -Tsvg` renders them into the site. Without `dot` on PATH, or when it fails, the
page still renders: it says why and links the DOT text, copied into the site.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from model import Requirement

# A diagram of a thousand blocks lays out in seconds; a hung `dot` must not hang the report.
DOT_TIMEOUT_SECONDS = 120


def requirement_diagrams(r: Requirement, results_dir: Path, folder: Path) -> list[dict[str, Any]]:
    """Per figure: its title and either `svg` (the SVG, relative to the site) or `dot` (the
    DOT file copied into the site) with a `note` saying why there is no picture."""
    dot = shutil.which("dot")
    drawn = []
    for k, figure in enumerate(r.figures):
        entry: dict[str, Any] = {"title": figure["title"], "svg": None, "dot": None, "note": ""}
        name = f"{r.slug}-diagram{k}"
        try:
            text = (results_dir / figure["file"]).read_bytes()
        except OSError as error:
            entry["note"] = f"The diagram's DOT file {figure['file']} cannot be read: {error.strerror}."
            drawn.append(entry)
            continue
        if dot is None:
            entry["note"] = "Graphviz is not installed (no dot on PATH), so the diagram is not drawn."
        else:
            try:
                run = subprocess.run([dot, "-Tsvg"], input=text, capture_output=True,
                                     timeout=DOT_TIMEOUT_SECONDS, check=False)
                if run.returncode == 0 and run.stdout:
                    (folder / f"{name}.svg").write_bytes(run.stdout)
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
