"""The report's view of a run: results.json plus the gate decision and coverage figures.

Everything the templates show is computed here, so templates stay free of logic and the
numbers can be unit tested without HTML.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

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
    # Aggregated: the point's group failed (or results.json records the point as not passed
    # without an error of its own); the point shows as failed "in a failing group".
    in_failing_group: bool = False


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
    # The block diagrams it runs: {"title", "file"} with file a DOT file under figures/.
    figures: list[dict[str, str]] = field(default_factory=list)
    axes: list[tuple[str, list[Any]]] = field(default_factory=list)  # varying axes
    fixed: list[tuple[str, Any]] = field(default_factory=list)  # one-valued axes
    compare: dict[str, Any] | None = None  # `compare:` as written (reference, norm, tube)
    # name -> unit for axes, series columns and the measure (results.json "units").
    units: dict[str, str] = field(default_factory=dict)
    # Against a baseline and earlier runs (trend.py): the change and the margin per run.
    trend: Any = None
    history: list[float | None] = field(default_factory=list)
    history_statuses: list[str] = field(default_factory=list)
    # Recorded as passed but not believed by the gate: its worst and margin are what
    # results.json claims, shown struck through.
    disputed: bool = False

    @property
    def sort_margin(self) -> str:
        """The margin the overview sorts by: a requirement that did not pass and has no margin
        it can be judged by (an error, a pass the gate disputes) sorts with the most unsafe."""
        if self.status in ("failed", "error") and (self.margin is None or self.disputed):
            return "-Infinity"
        return "" if self.margin is None else repr(self.margin)

    @property
    def errored_points(self) -> int:
        return sum(1 for p in self.points if p.error)

    @property
    def statistic(self) -> str:
        return (self.aggregate or {}).get("statistic", "")

    @property
    def statistic_name(self) -> str:
        return self.statistic.split("(")[0].strip()

    def unit_of(self, name: str) -> str:
        """The unit `name` is measured in, "" when none was declared or it is dimensionless
        ("1": a bare number reads better than "[1]")."""
        unit = self.units.get(name, "")
        return "" if unit == "1" else unit

    @property
    def quality_unit(self) -> str:
        """The unit of the judged number: the measure's, except for an observed order or a
        fraction of points, which are plain numbers."""
        if self.statistic_name in ("order", "fraction", "weighted_fraction"):
            return ""
        if self.compare and not self.compare_tube and self.compare_norm == "max_rel":
            return ""  # |m - r| / |r|
        return self.unit_of(self.measure)

    @property
    def compare_reference(self) -> str:
        """What a `compare:` compares with, as written: `data/ref.csv, column x`, the constant
        0.5, or the inline values [0.37, -0.1]."""
        ref = (self.compare or {}).get("reference")
        if isinstance(ref, dict):
            columns = ref.get("columns") if isinstance(ref.get("columns"), list) else (
                [ref["column"]] if ref.get("column") is not None else [])
            named = ", ".join(str(c) for c in columns)
            where = str(ref.get("file", "a reference file"))
            return f"{where}, column{'s' if len(columns) > 1 else ''} {named}" if columns else where
        if number(ref) is not None:
            return f"the constant {format_plain(ref)}"
        if isinstance(ref, list):
            shown = ", ".join(format_plain(v) for v in ref[:6]) + (", …" if len(ref) > 6 else "")
            return f"the {len(ref)} inline value{'s' if len(ref) != 1 else ''} [{shown}]"
        return "the reference"

    @property
    def compare_norm(self) -> str:
        return str((self.compare or {}).get("norm") or "max_abs")  # the documented default

    @property
    def compare_tube(self) -> dict[str, Any] | None:
        tube = (self.compare or {}).get("tube")
        return tube if isinstance(tube, dict) else None

    @property
    def tube_text(self) -> str:
        tube = self.compare_tube or {}
        parts = [f"{key} {format_plain(number(tube.get(key)) or 0.0)}" for key in ("abs", "rel")]
        time_unit = self.unit_of("t") or "s"
        return ", ".join(parts) + f", time {format_plain(number(tube.get('time')) or 0.0)} {time_unit}"

    def labelled(self, name: str, unit: str | None = None) -> str:
        """`name [unit]` as an axis label, the name alone when it has no unit."""
        unit = self.unit_of(name) if unit is None else unit
        return f"{name} [{unit}]" if unit else name

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

    def scenarios(self, point: Point) -> list[dict[str, Any]]:
        """A scenario study's scenarios at one point (component scenario, docs/studies.md): name,
        overrides, the value of `of` in it and whether it is the worst, best or base case; []
        when the point has none recorded."""
        defined = point.condition.get("scenarios")
        values = point.measures.get("scenario_values")
        if not isinstance(defined, dict) or not isinstance(values, list) or len(values) != len(defined):
            return []
        worst, best = point.measures.get("worst_scenario"), point.measures.get("best_scenario")
        return [{"index": k, "name": name, "overrides": overrides_text(overrides), "value": number(value),
                 "worst": k == worst, "best": k == best, "base": name == "base"}
                for k, ((name, overrides), value) in enumerate(zip(defined.items(), values))]

    def scenario_measure(self, point: Point, name: str) -> str | None:
        """worst_scenario / best_scenario (0-based indices) with the scenario's name, and
        scenario_values with each scenario's; None for any other measure."""
        if name not in ("worst_scenario", "best_scenario", "scenario_values"):
            return None
        rows = self.scenarios(point)
        if not rows:
            return None
        if name == "scenario_values":
            return ", ".join(f"{row['name']} {format_plain(row['value'])}" for row in rows)
        chosen = next((row for row in rows if row["worst" if name == "worst_scenario" else "best"]), None)
        return chosen["name"] if chosen else None

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
    line: dict[str, Any] | None
    branch: dict[str, Any] | None
    file: str = ""


@dataclass
class Check:
    ok: bool
    text: str


@dataclass
class Report:
    results_dir: Path
    releasable: bool
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


def open_regular(path: Path, follow_links: bool = True) -> BinaryIO | None:
    """`path` opened for reading when it is a regular file, else None (closed again): opened
    non-blocking, so a FIFO is refused without waiting for a writer, and checked on what was
    opened. With follow_links=False a symbolic link is refused too (OSError, ELOOP). Raises
    OSError when it cannot be opened."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow_links else os.O_NOFOLLOW)
    handle = os.fdopen(os.open(path, flags), "rb")
    if stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
        return handle
    handle.close()
    return None


class RepeatedKey(Exception):
    """A key an object already has (raised by unique_keys)."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's members as a dict, refusing a repeated key: json keeps the last value, so a
    second "passed" or "status" appended to a results file would silently win."""
    members: dict[str, Any] = {}
    for key, value in pairs:
        if key in members:
            raise RepeatedKey(key)
        members[key] = value
    return members


# The tokens that place a key: strings, the brackets and the colon.
JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:]')


def repeated_key_place(text: str) -> tuple[int, int, str]:
    """Line, column (from 1) and name of the first key in `text` that its object already has
    (the text holds one). Only on the way to an error message."""
    objects: list[set[str] | None] = []  # the keys of each open object; None for a list
    tokens = list(JSON_TOKEN.finditer(text))
    for k, token in enumerate(tokens):
        t = token.group()
        if t in "{[":
            objects.append(set() if t == "{" else None)
        elif t in "}]":
            if objects:
                objects.pop()
        elif t.startswith('"') and k + 1 < len(tokens) and tokens[k + 1].group() == ":" \
                and objects and objects[-1] is not None:
            key = json.loads(t)
            if key in objects[-1]:
                start = token.start()
                line = text.count("\n", 0, start) + 1
                return line, start - (text.rfind("\n", 0, start) + 1) + 1, key
            objects[-1].add(key)
    return 1, 1, ""


def read_json(path: Path, what: str) -> Any:
    """A JSON file, read only when it is a regular file: a FIFO put in its place must not hang
    the report. A key repeated in an object is refused as simverify's readers refuse it."""
    try:
        handle = open_regular(path)
        if handle is None:
            raise InputError(f"{path}: cannot read {what}: not a regular file")
        with handle:
            data = handle.read()
        text = data.decode("utf-8")
        try:
            return json.loads(text, object_pairs_hook=unique_keys)
        except RepeatedKey:
            line, column, key = repeated_key_place(text)
            raise InputError(f"{path}:{line}:{column}: duplicate key '{key}'") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read {what}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: cannot read {what}: not UTF-8 (byte {error.start})") from None
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


def parse_figures(raw: Any, path: Path, where: str) -> list[dict[str, str]]:
    """A requirement's figures; each file must lie under figures/ of the results folder."""
    figures = []
    for k, f in enumerate(raw or []):
        expect(isinstance(f, dict) and isinstance(f.get("title"), str) and isinstance(f.get("file"), str),
               path, f"{where}.figures[{k}]: expected an object with strings \"title\" and \"file\"")
        parts = PurePosixPath(f["file"]).parts
        expect(len(parts) > 1 and parts[0] == "figures" and ".." not in parts, path,
               f"{where}.figures[{k}]: file {f['file']!r} is not under figures/")
        figures.append({"title": f["title"], "file": f["file"]})
    return figures


def parse_units(raw: Any, path: Path, where: str) -> dict[str, str]:
    expect(raw is None or (isinstance(raw, dict) and all(isinstance(v, str) for v in raw.values())), path,
           f"{where}.units: expected an object of strings")
    return dict(raw or {})


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
    mark_failing_groups(requirement)
    requirement.compare = raw.get("compare") if isinstance(raw.get("compare"), dict) else None
    requirement.figures = parse_figures(raw.get("figures"), path, where)
    requirement.units = parse_units(raw.get("units"), path, where)
    split_axes(requirement)
    label_groups(requirement)
    return requirement


def mark_failing_groups(r: Requirement) -> None:
    """An aggregate judges groups: a point of a group that did not pass has not passed, whether
    results.json records it so (passed false without an error) or, as older runners wrote,
    passed true."""
    if not r.aggregate:
        return
    failing = {i for g in r.groups if not g.passed for i in g.points}
    for p in r.points:
        if not p.error and (not p.passed or p.index in failing):
            p.passed = False
            p.in_failing_group = True


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
    """Each group named by the axes that select it: not the `over` axes, not the `weight` axis,
    and not an axis whose value changes inside the group (one zipped with `over`); a single
    group is "all points"."""
    over = set((r.aggregate or {}).get("over", []))
    weight = (r.aggregate or {}).get("weight")
    by_index = {p.index: p for p in r.points}
    for g in r.groups:
        members = [by_index[i] for i in g.points if i in by_index]
        if not members:
            g.label = "(empty)"
            continue
        if len(r.groups) == 1:
            g.label = "all points"
            continue
        parts = [
            f"{name}={format_plain(members[0].condition.get(name))}"
            for name, _ in r.axes
            if name not in over and name != weight
            and all(axis_key(m.condition.get(name)) == axis_key(members[0].condition.get(name)) for m in members)
        ]
        g.label = ", ".join(parts) or "all points"


def overrides_text(overrides: Any) -> str:
    """A scenario's condition overrides: `p.lambda = -0.2`; none: the base conditions."""
    if not isinstance(overrides, dict):
        return format_plain(overrides)
    if not overrides:
        return "the conditions as given"
    return ", ".join(f"{key} = {format_plain(value)}" for key, value in overrides.items())


def scenarios_text(value: Any) -> str:
    """A `scenarios:` condition: `base (as given); slow: p.lambda = -0.2; fast: p.lambda = -3`."""
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        return format_plain(value)
    return "; ".join(f"{name}: {overrides_text(overrides)}" for name, overrides in value.items())


def format_plain(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, dict)):
        return human(value)  # as people write it: `road class B, 25 m/s`
    return str(value)


def figure(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        return None
    covered, total = number(raw.get("covered")), number(raw.get("total"))
    percent = number(raw.get("percent"))
    if covered is not None and total:
        percent = 100.0 * covered / total
    if percent is None:
        return None
    # "text": the percentage as the gate's checks show it, with the digits that keep a figure
    # below its bar from reading as the bar (79.996%, not 80.0%); an older gate wrote none.
    text = raw.get("text")
    if not isinstance(text, str) or not text:
        text = f"{percent:.1f}%"
    return {"covered": covered or 0.0, "total": total or 0.0, "percent": percent, "text": text[:32]}


def load_report(results_dir: Path, gate_file: Path, metadata: dict[str, str]) -> Report:
    """results.json for what was measured, and the gate's decision (`simverify gate --json`,
    which `simverify report` writes) for every verdict: releasability, each requirement's
    status and the coverage figures. The gate read results.json and the coverage file with
    simverify's own readers; nothing is decided or parsed a second time here."""
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

    gate = read_json(gate_file, "gate decision")
    expect(isinstance(gate, dict) and isinstance(gate.get("releasable"), bool), gate_file,
           'expected {"releasable", "checks", "requirements"} (simverify gate --json)')
    expect(isinstance(gate.get("checks", []), list) and all(isinstance(c, dict) for c in gate.get("checks", [])),
           gate_file, 'expected "checks" to be a list of {"ok", "text"}')
    checks = [Check(bool(c.get("ok")), str(c.get("text", ""))) for c in gate.get("checks", [])]
    apply_verdicts(requirements, gate.get("requirements"), gate_file)
    coverage = None
    if isinstance(gate.get("coverage"), dict):
        cov = gate["coverage"]
        coverage = Coverage(figure(cov.get("line")), figure(cov.get("branch")), str(cov.get("file", "")))
    summary = doc.get("summary") if isinstance(doc.get("summary"), dict) else {}
    # The commit the run verified, as results.json records it: the checkout the report is
    # rendered in may be another (results downloaded from an older pipeline).
    recorded_commit = summary.get("commit")
    if not metadata.get("commit") and isinstance(recorded_commit, str):
        metadata = {**metadata, "commit": recorded_commit[:64]}
    return Report(
        results_dir=results_dir,
        releasable=gate["releasable"],
        checks=checks,
        project_file=str(gate.get("project_file") or ""),
        complete=bool(doc.get("complete")),
        summary=summary,
        requirements=requirements,
        coverage=coverage,
        metadata=metadata,
    )


def apply_verdicts(requirements: list[Requirement], verdicts: Any, gate_file: Path) -> None:
    """Each requirement's status as the gate judged it (results.json order): a pass its points
    do not support shows as failed, with the gate's reason."""
    expect(isinstance(verdicts, list) and len(verdicts) == len(requirements)
           and all(isinstance(v, dict) for v in verdicts), gate_file,
           f'expected "requirements" to list the {len(requirements)} requirement(s) of the results')
    for r, verdict in zip(requirements, verdicts):
        expect(verdict.get("id") == r.id and verdict.get("status") in STATUSES, gate_file,
               f'requirements: expected {{"id": {r.id!r}, "status": passed|failed|error|skipped}}')
        r.disputed = r.status == "passed" and verdict["status"] != "passed"
        r.status = verdict["status"]
        r.reason = str(verdict.get("reason") or "")
        if r.status == "error":
            # A point that could not be evaluated has no quality: the worst of the others is
            # not the requirement's worst, and a positive margin from it would read as safe.
            r.worst = r.margin = None


# A series or table the report plots: read only when it is a regular file (a FIFO would block,
# /dev/zero never end) of bounded size, the rule simverify's own readers follow.
MAX_TABLE_BYTES = 256 << 20


def read_regular_text(path: Path, limit: int = MAX_TABLE_BYTES) -> str | None:
    """The file's text, or None when it is missing, not a regular file, larger than `limit`
    or not UTF-8 (open_regular: a FIFO is refused without waiting for a writer)."""
    try:
        handle = open_regular(path)
    except OSError:
        return None
    if handle is None:
        return None
    with handle:
        if os.fstat(handle.fileno()).st_size > limit:
            return None
        data = handle.read(limit + 1)
    try:
        return data[:limit].decode("utf-8")
    except UnicodeDecodeError:
        return None


def read_series(report: Report, reference: dict[str, Any]) -> tuple[list[str], list[list[float]]] | None:
    """A time series CSV beside results.json: header names and columns (t first)."""
    relative = reference.get("file")
    if not isinstance(relative, str):
        return None
    base = report.results_dir.resolve()
    path = (base / relative).resolve()
    if base not in path.parents:  # never read outside the results folder
        return None
    text = read_regular_text(path)
    if text is None:
        return None
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error:  # e.g. a field beyond the csv module's limit: not a series simverify wrote
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
