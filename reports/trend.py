"""Runs compared: the baseline (`simverify diff --json` of BASE and this run) and the margin
history over earlier runs (`--history DIR...`), attached to the report's requirements.

The comparison itself is `simverify diff`'s (one implementation, in C++); this module only
reads its JSON, for the baseline and for each earlier run of the history alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from model import Report, expect, number, read_json

CHANGES = ("regressed", "fixed", "changed", "new", "removed", "same")


@dataclass
class Trend:
    """One requirement against the baseline: how its status and margin moved."""

    change: str  # one of CHANGES
    base_status: str | None
    base_worst: float | None
    base_margin: float | None
    margin_delta: float | None

    @property
    def arrow(self) -> str:
        if self.margin_delta is None or self.margin_delta == 0:
            return "→"
        return "↑" if self.margin_delta > 0 else "↓"

    @property
    def direction(self) -> str:  # CSS class: better, worse or flat
        if self.margin_delta is None or self.margin_delta == 0:
            return "flat"
        return "better" if self.margin_delta > 0 else "worse"


def readable_time(stamp: str) -> str:
    """results.json's `started` (2026-11-20T08:00:00Z) as people read it."""
    return stamp.replace("T", " ").replace("Z", " UTC")


@dataclass
class Comparison:
    path: str
    commit: str
    started: str
    counts: dict[str, int]
    removed: list[dict[str, Any]] = field(default_factory=list)  # in the baseline only

    @property
    def label(self) -> str:
        parts = [p for p in (self.commit, readable_time(self.started)) if p]
        return ", ".join(parts) or self.path


@dataclass
class HistoryRun:
    label: str
    margins: dict[str, float | None]  # requirement id -> margin (None: no number)
    statuses: dict[str, str]


def attach_baseline(report: Report, diff_file: Path) -> None:
    """Reads `simverify diff --json BASE NEW` and gives each requirement its trend; newly
    failing requirements move to the top of the list."""
    doc = read_diff(diff_file, "comparison with the baseline")
    rows = doc["requirements"]
    base = doc.get("base") if isinstance(doc.get("base"), dict) else {}
    counts = doc.get("counts") if isinstance(doc.get("counts"), dict) else {}
    comparison = Comparison(
        path=str(base.get("path") or ""),
        commit=str(base.get("commit") or ""),
        started=str(base.get("started") or ""),
        counts={k: int(counts.get(k, 0)) for k in CHANGES},
    )
    by_id = {r.id: r for r in report.requirements}
    for row in rows:
        change = str(row.get("change", ""))
        expect(change in CHANGES, diff_file, f"unknown change {change!r} of {row.get('id')!r}")
        status = row.get("status") if isinstance(row.get("status"), dict) else {}
        worst = row.get("worst") if isinstance(row.get("worst"), dict) else {}
        margin = row.get("margin") if isinstance(row.get("margin"), dict) else {}
        if change == "removed":
            comparison.removed.append({"id": str(row.get("id")), "title": str(row.get("title", "")),
                                       "status": str(status.get("base") or ""),
                                       "margin": number(margin.get("base"))})
            continue
        requirement = by_id.get(str(row.get("id")))
        if requirement is None:
            continue  # a diff against other results than these: nothing to attach
        requirement.trend = Trend(
            change=change,
            base_status=status.get("base"),
            base_worst=number(worst.get("base")),
            base_margin=number(margin.get("base")),
            margin_delta=number(margin.get("delta")),
        )
    report.comparison = comparison
    # What a reviewer must see first: what broke, then what was fixed, then the rest as run.
    rank = {"regressed": 0, "fixed": 1, "changed": 2}
    report.requirements.sort(key=lambda r: rank.get(r.trend.change, 3) if r.trend else 3)


def read_diff(diff_file: Path, what: str) -> dict[str, Any]:
    """A `simverify diff --json` document: its requirements are objects."""
    doc = read_json(diff_file, what)
    expect(isinstance(doc, dict) and doc.get("format") == "simverify.diff/1", diff_file,
           'expected format "simverify.diff/1" (simverify diff --json)')
    rows = doc.get("requirements")
    expect(isinstance(rows, list) and all(isinstance(r, dict) for r in rows), diff_file,
           'expected "requirements" to be a list of objects')
    return doc


def read_history_run(diff_file: Path) -> tuple[HistoryRun, str]:
    """An earlier run as `simverify diff --json EARLIER THIS` saw it: its margins and statuses
    (the BASE side) and its start time (empty when not recorded). simverify read and checked
    the earlier results.json; nothing here parses one."""
    doc = read_diff(diff_file, "comparison with an earlier run (--history)")
    margins: dict[str, float | None] = {}
    statuses: dict[str, str] = {}
    for row in doc["requirements"]:
        status = row.get("status") if isinstance(row.get("status"), dict) else {}
        margin = row.get("margin") if isinstance(row.get("margin"), dict) else {}
        if not status.get("base"):
            continue  # new since that run: absent there
        margins[str(row.get("id"))] = number(margin.get("base"))
        statuses[str(row.get("id"))] = str(status["base"])
    base = doc.get("base") if isinstance(doc.get("base"), dict) else {}
    started = str(base.get("started") or "")
    label = started or Path(str(base.get("path") or diff_file)).parent.name
    if base.get("commit"):
        label += f" ({base['commit']})"
    return HistoryRun(label=label, margins=margins, statuses=statuses), started


def attach_history(report: Report, diff_files: list[Path]) -> None:
    """Each requirement's margin over the earlier runs (oldest first when the runs record
    their start, else as given) and this run last."""
    runs = [read_history_run(f) for f in diff_files]
    if all(started for _, started in runs):
        runs.sort(key=lambda item: item[1])
    ordered = [run for run, _ in runs]
    report.history_labels = [run.label for run in ordered] + ["this run"]
    for r in report.requirements:
        r.history = [run.margins.get(r.id) for run in ordered] + [r.margin]
        r.history_statuses = [run.statuses.get(r.id, "absent") for run in ordered] + [r.status]


def sparkline(values: list[float | None], statuses: list[str], width: int = 80, height: int = 22) -> Markup:
    """An inline SVG of the margins (zero line dashed; red dots where the run did not pass).
    Only numbers we format go into the markup, so nothing user-written is embedded."""
    finite = [v for v in values if v is not None and math.isfinite(v)]
    if not finite:
        return Markup('<span class="muted">–</span>')
    low, high = min(finite + [0.0]), max(finite + [0.0])
    span = high - low or 1.0
    step = (width - 6) / max(1, len(values) - 1)

    def y(v: float) -> float:
        return 3 + (height - 6) * (high - v) / span

    points, dots = [], []
    for i, (v, status) in enumerate(zip(values, statuses)):
        if v is None or not math.isfinite(v):
            continue
        x = 3 + i * step
        points.append(f"{x:.1f},{y(v):.1f}")
        colour = "#16a34a" if status == "passed" else "#dc2626"
        dots.append(f'<circle cx="{x:.1f}" cy="{y(v):.1f}" r="2.2" fill="{colour}"/>')
    zero = y(0.0)
    title = " → ".join("–" if v is None else f"{v:.3g}" for v in values)
    return Markup(
        f'<svg class="spark" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">'
        f"<title>margin per run: {title}</title>"
        f'<line x1="0" x2="{width}" y1="{zero:.1f}" y2="{zero:.1f}" stroke="#9ca3af" stroke-dasharray="2,2"/>'
        f'<polyline fill="none" stroke="#2563eb" stroke-width="1.4" points="{" ".join(points)}"/>'
        + "".join(dots) + "</svg>"
    )
