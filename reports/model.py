"""The report's view of a run: results.json plus the gate decision and coverage figures.

Everything the templates show is computed here, so templates stay free of logic and the
numbers can be unit tested without HTML.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import re
from xml.etree import ElementTree
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conditions import human

LEVELS = ("unit", "integration", "system")
STATUSES = ("passed", "failed", "error", "skipped")
STATISTICAL = ("mean", "median", "std", "quantile", "ci_upper", "ci_lower", "fraction", "max", "min")


class InputError(Exception):
    """Unreadable or malformed input; the message names the file."""


@dataclass
class Threshold:
    relation: str  # ">=" or "<="
    bound: float

    @staticmethod
    def parse(text: str) -> Threshold | None:
        match = re.fullmatch(r"\s*(>=|<=)\s*(\S+)\s*", text or "")
        if not match:
            return None
        try:
            return Threshold(match.group(1), float(match.group(2)))
        except ValueError:
            return None

    def margin(self, quality: float | None) -> float | None:
        """How far on the safe side (positive) or the wrong side (negative) a value lies."""
        if quality is None or math.isnan(quality):
            return None
        return quality - self.bound if self.relation == ">=" else self.bound - quality


@dataclass
class Point:
    index: int
    condition: dict[str, Any]
    measures: dict[str, Any]
    quality: float | None
    passed: bool
    error: str | None
    seconds: float | None
    margin: float | None = None
    # The measured number at this point before aggregation (results.json "value", e.g. the
    # rms(y.x) of one seed when the mean over seeds is judged); None when not recorded.
    value: float | None = None


@dataclass
class Group:
    points: list[int]
    quality: float | None
    passed: bool
    error: str | None
    label: str = ""
    margin: float | None = None


@dataclass
class Requirement:
    id: str
    slug: str
    title: str
    level: str
    component: str
    status: str
    threshold_text: str
    threshold: Threshold | None
    worst: float | None
    margin: float | None
    reason: str
    description: str
    measure: str
    aggregate: dict[str, Any] | None
    trace: dict[str, str]
    depends_on: list[str]
    grid_size: int
    seconds: float | None
    location: str
    points: list[Point]
    groups: list[Group]
    axes: list[tuple[str, list[Any]]] = field(default_factory=list)  # varying axes
    fixed: list[tuple[str, Any]] = field(default_factory=list)  # one-valued axes
    compare: dict[str, Any] | None = None  # `compare:` as written (reference, norm, tube)
    # Against a baseline and earlier runs (trend.py): the change and the margin per run.
    trend: Any = None
    history: list[float | None] = field(default_factory=list)
    history_statuses: list[str] = field(default_factory=list)

    @property
    def statistic(self) -> str:
        return (self.aggregate or {}).get("statistic", "")

    @property
    def statistic_name(self) -> str:
        return self.statistic.split("(")[0].strip()

    def worst_points(self, count: int = 3) -> list[Point]:
        """Errors first, then the points farthest on the wrong side of the threshold; when
        aggregated, the points of the worst groups (the group is what was judged)."""

        def key(margin: float | None, error: Any) -> tuple[int, float]:
            if error or margin is None or math.isnan(margin):
                return (0, 0.0)
            return (1, margin)

        if self.aggregate and self.groups:
            by_index = {p.index: p for p in self.points}
            ordered = sorted(self.groups, key=lambda g: key(g.margin, g.error))
            # Within a group, the most extreme measure on the threshold's wrong side first.
            # For an order the slope is judged, not the size of the error: show the largest
            # error (the coarsest step), where a wrong trajectory is easiest to see.
            lower_is_better = self.threshold and self.threshold.relation == "<="
            sign = -1.0 if lower_is_better or self.statistic_name == "order" else 1.0

            def extreme(p: Point) -> float:
                value = number(self.measure_of(p))
                return sign * value if value is not None and not math.isnan(value) else -math.inf

            members = [m for g in ordered for m in sorted((by_index[i] for i in g.points if i in by_index), key=extreme)]
            errors = [p for p in members if p.error]
            return (errors + [p for p in members if not p.error])[:count]
        return sorted(self.points, key=lambda p: key(p.margin, p.error))[:count]

    def group_label_of(self, point: Point) -> str:
        return next((g.label for g in self.groups if point.index in g.points), "–")

    def measure_of(self, point: Point) -> float | None:
        """The number the quality is computed from at one point: the recorded "value" (a
        derived measure such as rms(y.x) or a compare distance lives only there), else the
        named scalar measure."""
        if point.value is not None:
            return point.value
        return number(point.measures.get(self.measure))


@dataclass
class Coverage:
    line: dict[str, float] | None
    branch: dict[str, float] | None
    file: str = ""


@dataclass
class Check:
    ok: bool
    text: str


@dataclass
class Report:
    results_dir: Path
    releasable: bool
    gate_source: str  # "gate" when decided by simverify gate, else "results"
    checks: list[Check]
    project_file: str
    complete: bool
    summary: dict[str, Any]
    requirements: list[Requirement]
    coverage: Coverage | None
    metadata: dict[str, str]
    coverage_link: str | None = None
    comparison: Any = None  # trend.Comparison when a baseline was given
    history_labels: list[str] = field(default_factory=list)

    @property
    def reasons(self) -> list[str]:
        return [c.text for c in self.checks if not c.ok]

    def level_counts(self) -> list[dict[str, Any]]:
        rows = []
        for level in LEVELS:
            mine = [r for r in self.requirements if r.level == level]
            row: dict[str, Any] = {"level": level, "total": len(mine)}
            for status in STATUSES:
                row[status] = sum(1 for r in mine if r.status == status)
            row["points"] = sum(r.grid_size for r in mine)
            rows.append(row)
        return rows

    def status_counts(self) -> dict[str, int]:
        return {s: sum(1 for r in self.requirements if r.status == s) for s in STATUSES}

    def by_id(self, requirement_id: str) -> Requirement | None:
        return next((r for r in self.requirements if r.id == requirement_id), None)

    def trace_rows(self) -> list[dict[str, Any]]:
        """Source document -> requirement -> component -> tests, grouped by source."""
        rows = []
        for r in self.requirements:
            extra = {k: v for k, v in r.trace.items() if k != "source"}
            rows.append(
                {
                    "source": r.trace.get("source", ""),
                    "requirement": r,
                    "component": r.component,
                    "links": sorted(extra.items()),
                }
            )
        rows.sort(key=lambda row: (row["source"] == "", row["source"], row["requirement"].id))
        return rows

    def components(self) -> list[str]:
        return sorted({r.component for r in self.requirements})


def slug_of(requirement_id: str) -> str:
    # Ids are [A-Z0-9._-]+ by contract, but the report must not trust that for file names:
    # anything else is replaced, and a short hash keeps distinct ids on distinct pages.
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", requirement_id).strip(".") or "requirement"
    if safe != requirement_id:
        safe += "-" + hashlib.sha1(requirement_id.encode()).hexdigest()[:8]
    return safe[:120]


def number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise InputError(f"{path}: cannot read {what}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise InputError(f"{path}:{error.lineno}:{error.colno}: not valid JSON: {error.msg}") from None


def expect(condition: bool, path: Path, message: str) -> None:
    if not condition:
        raise InputError(f"{path}: {message}")


def parse_point(raw: Any, path: Path, where: str, threshold: Threshold | None) -> Point:
    expect(isinstance(raw, dict), path, f"{where}: expected an object")
    quality = number(raw.get("quality"))
    point = Point(
        index=int(raw.get("index", 0)),
        condition=raw.get("condition") or {},
        measures=raw.get("measures") or {},
        quality=quality,
        passed=bool(raw.get("passed", False)),
        error=raw.get("error"),
        seconds=number(raw.get("seconds")),
        value=number(raw.get("value")),
    )
    point.margin = threshold.margin(quality) if threshold else None
    return point


def parse_requirement(raw: Any, path: Path, position: int) -> Requirement:
    where = f"requirements[{position}]"
    expect(isinstance(raw, dict), path, f"{where}: expected an object")
    for key in ("id", "status"):
        expect(isinstance(raw.get(key), str), path, f"{where}: expected a string \"{key}\"")
    expect(raw["status"] in STATUSES, path, f"{where}: unknown status {raw['status']!r}")
    threshold = Threshold.parse(str(raw.get("threshold", "")))
    worst = number(raw.get("worst"))
    points_raw = raw.get("points") or []
    expect(isinstance(points_raw, list), path, f"{where}.points: expected a list")
    points = [
        parse_point(p, path, f"{where}.points[{i}]", threshold) for i, p in enumerate(points_raw)
    ]
    groups = []
    for g in raw.get("groups") or []:
        quality = number(g.get("quality"))
        groups.append(
            Group(
                points=[int(i) for i in g.get("points", [])],
                quality=quality,
                passed=bool(g.get("passed", False)),
                error=g.get("error"),
                margin=threshold.margin(quality) if threshold else None,
            )
        )
    trace = {str(k): str(v) for k, v in (raw.get("trace") or {}).items()}
    requirement = Requirement(
        id=raw["id"],
        slug=slug_of(raw["id"]),
        title=str(raw.get("title", "")),
        level=str(raw.get("level", "")),
        component=str(raw.get("component", "")),
        status=raw["status"],
        threshold_text=str(raw.get("threshold", "")),
        threshold=threshold,
        worst=worst,
        margin=threshold.margin(worst) if threshold else None,
        reason=str(raw.get("reason") or ""),
        description=str(raw.get("description") or ""),
        measure=str(raw.get("measure") or ""),
        aggregate=raw.get("aggregate"),
        trace=trace,
        depends_on=[str(d) for d in raw.get("depends_on") or []],
        grid_size=int(raw.get("grid_size", len(points))),
        seconds=number(raw.get("seconds")),
        location=str(raw.get("location") or ""),
        points=points,
        groups=groups,
    )
    requirement.compare = raw.get("compare") if isinstance(raw.get("compare"), dict) else None
    split_axes(requirement)
    label_groups(requirement)
    return requirement


def axis_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def split_axes(r: Requirement) -> None:
    """Axes whose value changes across the grid, and the fixed ones (the conditions)."""
    names: list[str] = []
    for p in r.points:
        for name in p.condition:
            if name not in names:
                names.append(name)
    for name in names:
        seen: dict[str, Any] = {}
        for p in r.points:
            value = p.condition.get(name)
            seen.setdefault(axis_key(value), value)
        values = list(seen.values())
        if len(values) > 1:
            r.axes.append((name, values))
        else:
            r.fixed.append((name, values[0]))


def label_groups(r: Requirement) -> None:
    over = set((r.aggregate or {}).get("over", []))
    by_index = {p.index: p for p in r.points}
    for g in r.groups:
        members = [by_index[i] for i in g.points if i in by_index]
        if not members:
            g.label = "(empty)"
            continue
        parts = [
            f"{name}={format_plain(members[0].condition.get(name))}"
            for name, _ in r.axes
            if name not in over
        ]
        g.label = ", ".join(parts) or "all points"


def format_plain(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, dict)):
        return human(value)  # as people write it: `road class B, 25 m/s`
    return str(value)


def parse_coverage(path: Path) -> Coverage:
    """ci/coverage's summary JSON, or an lcov tracefile (LF/LH, BRF/BRH totals)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"{path}: cannot read coverage data: {error.strerror}") from None
    if text.lstrip().startswith("<"):
        return parse_cobertura(text, path)
    if text.lstrip().startswith("{"):
        doc = read_json(path, "coverage data")
        expect(isinstance(doc, dict), path, "expected a JSON object")
        return Coverage(line=figure(doc.get("line")), branch=figure(doc.get("branch")), file=str(path))
    totals = {"LF": 0.0, "LH": 0.0, "BRF": 0.0, "BRH": 0.0}
    for line_number, line in enumerate(text.splitlines(), 1):
        key, _, value = line.partition(":")
        if key in totals:
            try:
                totals[key] += float(value)
            except ValueError:
                raise InputError(f"{path}:{line_number}: expected a count after {key}:") from None
    expect(totals["LF"] > 0, path, "no lcov line totals (LF:) found")
    return Coverage(
        line=figure({"covered": totals["LH"], "total": totals["LF"]}),
        branch=figure({"covered": totals["BRH"], "total": totals["BRF"]}) if totals["BRF"] else None,
        file=str(path),
    )


def parse_cobertura(text: str, path: Path) -> Coverage:
    """gcovr --cobertura: the totals are attributes of the root <coverage> element."""
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        line, column = error.position
        raise InputError(f"{path}:{line}:{column + 1}: not valid XML ({error})") from None
    expect(root.tag == "coverage", path, "expected a Cobertura <coverage> element")

    def pair(covered: str, valid: str) -> dict[str, float] | None:
        try:
            c, v = float(root.attrib[covered]), float(root.attrib[valid])
        except (KeyError, ValueError):
            return None
        return figure({"covered": c, "total": v}) if v > 0 else None

    line = pair("lines-covered", "lines-valid")
    expect(line is not None, path, "<coverage> lacks lines-covered/lines-valid")
    return Coverage(line=line, branch=pair("branches-covered", "branches-valid"), file=str(path))


def figure(raw: Any) -> dict[str, float] | None:
    if not isinstance(raw, dict):
        return None
    covered, total = number(raw.get("covered")), number(raw.get("total"))
    percent = number(raw.get("percent"))
    if covered is not None and total:
        percent = 100.0 * covered / total
    if percent is None:
        return None
    return {"covered": covered or 0.0, "total": total or 0.0, "percent": percent}


def fallback_checks(doc: dict[str, Any], requirements: list[Requirement]) -> list[Check]:
    """Without a gate decision, the verdict the runner itself recorded, with its reasons."""
    checks = [Check(bool(doc.get("complete")), "the run is complete" if doc.get("complete") else "the run is incomplete (interrupted or partial)")]
    passed = sum(1 for r in requirements if r.status == "passed")
    checks.append(Check(passed == len(requirements) and bool(requirements), f"{passed} of {len(requirements)} planned requirement(s) passed at every grid point"))
    for r in requirements:
        if r.status != "passed":
            what = "did not run" if r.status == "skipped" else r.status
            checks.append(Check(False, f"{r.id} {what}: {r.reason}" if r.reason else f"{r.id} {what}"))
    return checks


def load_report(
    results_dir: Path,
    gate_file: Path | None,
    coverage_file: Path | None,
    metadata: dict[str, str],
) -> Report:
    path = results_dir / "results.json"
    doc = read_json(path, "results (expected a folder written by simverify run)")
    expect(isinstance(doc, dict), path, "expected a JSON object")
    expect(doc.get("format") == "simverify.results/1", path, 'expected format "simverify.results/1"')
    raw_requirements = doc.get("requirements")
    expect(isinstance(raw_requirements, list), path, 'expected "requirements" to be a list')
    requirements = []
    for i, raw in enumerate(raw_requirements):
        try:
            requirements.append(parse_requirement(raw, path, i))
        except (TypeError, ValueError, AttributeError) as error:
            # A wrong type deep inside (an index that is not a number, a group that is not
            # an object): bad input naming the requirement, not a traceback.
            raise InputError(f"{path}: requirements[{i}]: unexpected value: {error}") from None
    slugs = [r.slug for r in requirements]
    expect(len(set(slugs)) == len(slugs), path, "requirement ids are not unique")

    coverage = None
    if gate_file:
        gate = read_json(gate_file, "gate decision")
        expect(isinstance(gate, dict) and "releasable" in gate, gate_file, 'expected {"releasable", "checks"}')
        expect(isinstance(gate.get("checks", []), list) and all(isinstance(c, dict) for c in gate.get("checks", [])),
               gate_file, 'expected "checks" to be a list of {"ok", "text"}')
        checks = [Check(bool(c.get("ok")), str(c.get("text", ""))) for c in gate.get("checks", [])]
        releasable, source = bool(gate["releasable"]), "gate"
        project_file = gate.get("project_file") or ""
        # The gate already read the coverage file (JSON, lcov or Cobertura): one reading,
        # the same figures in the verdict and on the page.
        if isinstance(gate.get("coverage"), dict):
            cov = gate["coverage"]
            coverage = Coverage(figure(cov.get("line")), figure(cov.get("branch")), str(cov.get("file", "")))
    else:
        checks = fallback_checks(doc, requirements)
        releasable = bool(doc.get("releasable")) and all(c.ok for c in checks)
        source, project_file = "results", ""
    if coverage is None and coverage_file:
        coverage = parse_coverage(coverage_file)
    summary = doc.get("summary") if isinstance(doc.get("summary"), dict) else {}
    return Report(
        results_dir=results_dir,
        releasable=releasable,
        gate_source=source,
        checks=checks,
        project_file=project_file,
        complete=bool(doc.get("complete")),
        summary=summary,
        requirements=requirements,
        coverage=coverage,
        metadata=metadata,
    )


def read_series(report: Report, reference: dict[str, Any]) -> tuple[list[str], list[list[float]]] | None:
    """A time series CSV beside results.json: header names and columns (t first)."""
    relative = reference.get("file")
    if not isinstance(relative, str):
        return None
    base = report.results_dir.resolve()
    path = (base / relative).resolve()
    if base not in path.parents:  # never read outside the results folder
        return None
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
    except OSError:
        return None
    if len(rows) < 2:
        return None
    names = rows[0]
    columns: list[list[float]] = [[] for _ in names]
    for row in rows[1:]:
        if len(row) != len(names):
            continue
        for column, cell in zip(columns, row):
            try:
                column.append(float(cell))
            except ValueError:
                column.append(math.nan)
    return names, columns
