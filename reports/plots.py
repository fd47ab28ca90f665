"""The report's figures: matplotlib (Agg) rendered to reproducible SVG files.

Reproducible: a fixed `svg.hashsalt` and no date in the metadata, so the same results give
byte-identical SVGs (diffable, cacheable). User-written text is never parsed as mathtext
(save() switches it off per text object), so a `$` in a title cannot break a figure.
"""

from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402
import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

from model import (  # noqa: E402
    Point, Report, Requirement, axis_key, format_plain, number, read_regular_text, read_series)

matplotlib.rcParams.update(
    {
        "svg.hashsalt": "simverify",
        "svg.fonttype": "path",
        "font.size": 9,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.color": "#e5e7eb",
        "axes.edgecolor": "#9ca3af",
        "axes.titlesize": 10,
        "figure.dpi": 96,
    }
)

PASS, FAIL, LINE, BOUND = "#16a34a", "#dc2626", "#2563eb", "#f59e0b"
# A point that could not be evaluated: neither passed (green) nor failed (red).
ERROR_COLOUR, ERROR_MARKER, ERROR_LABEL = "#111827", "X", "error (not evaluated)"
MAX_PANELS = 12
MAX_TRAJECTORIES = 3


def save(fig: plt.Figure, folder: Path, name: str) -> str:
    # Tick labels on log axes are mathtext made by matplotlib itself; every other text
    # (titles, labels, legends, annotations) may carry user strings and is taken literally.
    # The tick labels are collected once: asking each axis per text object recomputes the
    # ticks every time and made large reports take minutes.
    ticks = tick_labels(fig)
    for text in fig.findobj(matplotlib.text.Text):
        if id(text) not in ticks:
            text.set_parse_math(False)
    fig.tight_layout()
    fig.savefig(folder / name, format="svg", metadata={"Date": None})
    plt.close(fig)
    return f"plots/{name}"


def tick_labels(fig: plt.Figure) -> set[int]:
    labels: set[int] = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels.update(id(t) for t in axis.get_majorticklabels())
            labels.update(id(t) for t in axis.get_minorticklabels())
    return labels


def literal(text: str) -> str:
    """A user string used as a tick label (tick labels keep mathtext for log axes)."""
    return text.replace("$", r"\$")


def numeric_axis(values: list[Any]) -> bool:
    return all(number(v) is not None for v in values)


def log_scale(values: list[float]) -> bool:
    positive = [v for v in values if v > 0]
    return len(positive) == len(values) and max(positive) / min(positive) >= 50


def threshold_line(ax: plt.Axes, r: Requirement) -> None:
    if r.threshold is not None:
        ax.axhline(r.threshold.bound, color=BOUND, linestyle="--", linewidth=1, label=f"threshold {r.threshold_text}")


def quality(p: Point) -> float:
    return p.quality if p.quality is not None else math.nan


def requirement_figures(r: Requirement, report: Report, folder: Path) -> dict[str, Any]:
    figures: dict[str, Any] = {"grid": None, "convergence": None, "statistics": None, "monte_carlo": None,
                               "trajectories": []}
    # Aggregated requirements judge groups, not points: the grid plot then shows the
    # measure itself, the convergence or statistics figure shows the judged quantity.
    if r.points and r.statistic_name != "order":
        figures["grid"] = grid_figure(r, folder)
    if r.statistic_name == "order":
        figures["convergence"] = convergence_figure(r, folder)
    elif r.statistic_name in ("mean", "median", "std", "quantile", "ci_upper", "ci_lower", "fraction", "max", "min"):
        figures["statistics"] = statistics_figure(r, folder)
    figures["monte_carlo"] = monte_carlo_figure(r, folder)
    figures["trajectories"] = trajectory_figures(r, report, folder)
    return figures


def mark_errors(ax: plt.Axes, xs: list[float], points: list[Point]) -> bool:
    """Points that could not be evaluated have no value to draw: a cross at their x at the foot
    of the axes, so the grid shows them (their x stays in the axis range). True when any."""
    bad = [x for x, p in zip(xs, points) if p.error]
    if not bad:
        return False
    ax.scatter(bad, [0.04] * len(bad), transform=ax.get_xaxis_transform(), marker=ERROR_MARKER, s=64,
               color=ERROR_COLOUR, zorder=5, clip_on=False, label=ERROR_LABEL)
    # Limits follow data coordinates only: take in the errored x explicitly.
    ax.update_datalim([(x, 0.0) for x in bad], updatex=True, updatey=False)
    ax.autoscale_view()
    return True


def point_legend(ax: plt.Axes, points: list[Point], **options: Any) -> None:
    """The legend with what the point colours mean: green passes, red fails (only those
    present), and the error cross drawn by mark_errors."""
    handles, labels = ax.get_legend_handles_labels()
    extra = []
    if any(p.passed for p in points):
        extra.append((matplotlib.lines.Line2D([], [], marker="o", linestyle="", color=PASS), "passes"))
    if any(not p.passed and not p.error for p in points):
        extra.append((matplotlib.lines.Line2D([], [], marker="o", linestyle="", color=FAIL), "fails"))
    for handle, label in extra:
        handles.append(handle)
        labels.append(label)
    if labels:
        ax.legend(handles, labels, **options)


def grid_values(r: Requirement, p: Point) -> float:
    """The value plotted over the grid: the quality, or the raw measure when aggregated."""
    if r.aggregate:
        return measure_value(p, r.measure)
    return quality(p)


def measure_value(p: Point, measure: str) -> float:
    value = p.value if p.value is not None else number(p.measures.get(measure))
    return value if value is not None else (p.quality if p.quality is not None else math.nan)


# Series colours: matplotlib's cycle without its red, which on these plots means "fails".
SERIES_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]


def plot_axes(r: Requirement) -> list[tuple[str, list[Any]]]:
    """The axes the grid plot spreads the points over: not an aggregate's `weight` (a weight per
    case, not a grouping), and of axes zipped one to one (each value of one goes with one value
    of the other) only the first, the `over` axis first: splitting by the partner would draw
    one series per point."""
    aggregate = r.aggregate or {}
    over = aggregate.get("over", [])
    axes = [a for a in r.axes if a[0] != aggregate.get("weight")]
    axes.sort(key=lambda a: a[0] not in over)
    kept: list[tuple[str, list[Any]]] = []
    for name, values in axes:
        if not any(zipped(r, name, other) for other, _ in kept):
            kept.append((name, values))
    return kept or axes[:1] or r.axes[:1]


def zipped(r: Requirement, a: str, b: str) -> bool:
    """Whether axes a and b go together one to one over the grid's points."""
    pairs = {(json.dumps(p.condition.get(a), sort_keys=True), json.dumps(p.condition.get(b), sort_keys=True))
             for p in r.points}
    return len({x for x, _ in pairs}) == len(pairs) == len({y for _, y in pairs})


def grid_figure(r: Requirement, folder: Path) -> dict[str, str] | None:
    axes = plot_axes(r)
    what = r.labelled(r.measure) if r.aggregate else f"quality ({r.labelled(r.measure)})"
    if r.compare and not r.aggregate:  # the quality is a distance to the reference, not the signal
        kind = "tube violation" if r.compare_tube else f"{r.compare_norm} distance to reference"
        what = f"{kind} of {r.labelled(r.measure, r.quality_unit)}"
    if not axes:
        return None
    if len(axes) == 1:
        return line_figure(r, folder, axes[0], what)
    if len(axes) == 2 and not r.aggregate:
        return heatmap_figure(r, folder, axes[0], axes[1], what)
    return small_multiples(r, folder, axes, what)


def line_figure(r: Requirement, folder: Path, axis: tuple[str, list[Any]], what: str) -> dict[str, str]:
    name, values = axis
    fig, ax = plt.subplots(figsize=(7.2, 3.4))
    points = r.points
    if numeric_axis(values):
        xs = [float(p.condition[name]) for p in points]
        order = sorted(range(len(points)), key=lambda i: xs[i])
        x_sorted = [xs[i] for i in order]
        if log_scale(xs):
            ax.set_xscale("log")
        elif all(x == int(x) for x in xs):
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # seeds, counts: no 2.5
    else:
        labels = [literal(format_plain(v)) for v in values]
        x_sorted = list(range(len(points)))
        order = list(range(len(points)))
        ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
    ys = [grid_values(r, points[i]) for i in order]
    ax.plot(x_sorted, ys, color=LINE, linewidth=1.4, zorder=2)
    colors = [PASS if points[i].passed else FAIL for i in order]
    ax.scatter(x_sorted, ys, c=colors, s=28, zorder=3, edgecolors="white", linewidths=0.6)
    errors = mark_errors(ax, x_sorted, [points[i] for i in order])
    if not r.aggregate:
        threshold_line(ax, r)
    point_legend(ax, points, loc="best", frameon=False, fontsize=8)
    if all(y > 0 for y in ys if not math.isnan(y)) and ys and log_scale([y for y in ys if not math.isnan(y)] or [1]):
        ax.set_yscale("log")
    ax.set_xlabel(r.labelled(name))
    ax.set_ylabel(what)
    ax.set_title(f"{what} over {name}")
    note = "; a black cross at the foot: the point could not be evaluated (error)" if errors else ""
    return {"file": save(fig, folder, f"{r.slug}-grid.svg"),
            "caption": f"{what} at each value of {name}; green points pass, red points fail{note}."}


def heatmap_figure(r: Requirement, folder: Path, x_axis: tuple[str, list[Any]], y_axis: tuple[str, list[Any]], what: str) -> dict[str, str]:
    (x_name, x_values), (y_name, y_values) = x_axis, y_axis
    x_index = {format_plain(v): i for i, v in enumerate(sort_values(x_values))}
    y_index = {format_plain(v): i for i, v in enumerate(sort_values(y_values))}
    grid = np.full((len(y_index), len(x_index)), np.nan)
    failed = np.zeros_like(grid, dtype=bool)
    errored = np.zeros_like(grid, dtype=bool)
    for p in r.points:
        i, j = y_index[format_plain(p.condition.get(y_name))], x_index[format_plain(p.condition.get(x_name))]
        grid[i, j] = quality(p)
        failed[i, j] = not p.passed and not p.error
        errored[i, j] = bool(p.error)
    fig, ax = plt.subplots(figsize=(7.2, max(2.6, 0.42 * len(y_index) + 1.4)))
    finite = grid[np.isfinite(grid)]
    use_log = finite.size > 0 and np.all(finite > 0) and finite.max() / finite.min() >= 50
    shown = np.log10(grid) if use_log else grid
    image = ax.imshow(shown, aspect="auto", cmap="viridis", origin="lower")
    bar = fig.colorbar(image, ax=ax)
    bar.set_label(f"log10 {what}" if use_log else what)
    ax.set_xticks(range(len(x_index)), [literal(k) for k in x_index], rotation=30, ha="right")
    ax.set_yticks(range(len(y_index)), [literal(k) for k in y_index])
    ax.grid(False)
    if grid.size <= 144:
        for (i, j), value in np.ndenumerate(grid):
            ax.text(j, i, "error" if errored[i, j] else "NaN" if math.isnan(value) else f"{value:.3g}", ha="center", va="center", fontsize=7,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.5} if errored[i, j] else None,
                    # Red text vanished on viridis' dark end: the label takes the contrasting
                    # colour of its cell, a failed cell is marked by its red outline and bold.
                    color=label_colour(image, shown[i, j]),
                    fontweight="bold" if failed[i, j] else "normal")
    for i, j in zip(*np.nonzero(failed)):
        ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=FAIL, linewidth=2))
    for i, j in zip(*np.nonzero(errored)):
        ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=ERROR_COLOUR, linewidth=1,
                                   hatch="xx", label=ERROR_LABEL if (i, j) == tuple(np.argwhere(errored)[0]) else None))
    if errored.any():
        ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=7)
    ax.set_xlabel(r.labelled(x_name))
    ax.set_ylabel(r.labelled(y_name))
    # With the error legend above the right end, the title moves left to make room.
    ax.set_title(f"{what} over {x_name} × {y_name}", loc="left" if errored.any() else "center")
    return {"file": save(fig, folder, f"{r.slug}-grid.svg"), "caption": f"{what} over the grid; cells outlined in red fail the threshold {r.threshold_text}"
            + ("; hatched cells could not be evaluated (error)." if errored.any() else ".")}


def label_colour(image: Any, value: float) -> str:
    """Black on the light end of the colour map (viridis' yellow), white on the dark end."""
    if math.isnan(value):
        return "black"
    red, green, blue, _ = image.cmap(image.norm(value))
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.5 else "white"


def sort_values(values: list[Any]) -> list[Any]:
    if numeric_axis(values):
        return sorted(values, key=float)
    return list(values)


def small_multiples(r: Requirement, folder: Path, axes: list[tuple[str, list[Any]]], what: str) -> dict[str, str]:
    """One panel per combination of the remaining axes; x the widest numeric axis, lines
    the next axis (or the aggregate's `over` axis first, since that is what is judged)."""
    axes = sorted(axes, key=lambda a: (not numeric_axis(a[1]), -len(a[1])))
    over = (r.aggregate or {}).get("over", [])
    if over:
        axes = sorted(axes, key=lambda a: a[0] not in over)
    x_name, x_values = axes[0]
    series_name = axes[1][0]
    rest = [name for name, _ in axes[2:]]
    panels: dict[str, list[Point]] = {}
    for p in r.points:
        key = ", ".join(f"{n}={format_plain(p.condition.get(n))}" for n in rest) or "all"
        panels.setdefault(key, []).append(p)
    keys = list(panels)[:MAX_PANELS]
    columns = min(3, len(keys))
    rows = math.ceil(len(keys) / columns)
    fig, grid = plt.subplots(rows, columns, figsize=(7.6, 2.9 * rows + 0.6), squeeze=False, sharey=True)
    numeric_x = numeric_axis(x_values)
    x_place = {axis_key(v): k for k, v in enumerate(x_values)}
    errors = False
    for panel, key in zip(grid.flat, keys):
        by_series: dict[str, list[Point]] = {}
        for p in panels[key]:
            by_series.setdefault(format_plain(p.condition.get(series_name)), []).append(p)
        for label, members in by_series.items():
            if numeric_x:
                members = sorted(members, key=lambda p: float(p.condition[x_name]))
                xs = [float(p.condition[x_name]) for p in members]
            else:  # a category's place on the axis, whichever categories this series has
                members = sorted(members, key=lambda p: x_place[axis_key(p.condition.get(x_name))])
                xs = [x_place[axis_key(p.condition.get(x_name))] for p in members]
            ys = [grid_values(r, p) for p in members]
            colour = SERIES_COLOURS[list(by_series).index(label) % len(SERIES_COLOURS)]
            panel.plot(xs, ys, marker="o", markersize=3, linewidth=1.1, color=colour, label=f"{series_name}={label}")
            bad = [(x, y) for x, y, p in zip(xs, ys, members) if not p.passed and not p.error]
            if bad:
                panel.scatter(*zip(*bad), color=FAIL, s=26, zorder=4)
            errors = mark_errors(panel, xs, members) or errors
        if numeric_x and log_scale([float(v) for v in x_values]):
            panel.set_xscale("log")
        if not numeric_x:
            panel.set_xticks(range(len(x_values)), [literal(format_plain(v)) for v in x_values], rotation=30,
                             ha="right", fontsize=7)
        values = [grid_values(r, p) for p in panels[key]]
        finite = [v for v in values if not math.isnan(v)]
        if finite and all(v > 0 for v in finite) and log_scale(finite):
            panel.set_yscale("log")
        if not r.aggregate and r.threshold is not None:
            panel.axhline(r.threshold.bound, color=BOUND, linestyle="--", linewidth=1)
        # Conditions such as an input signal {"road": {...}} make long keys: wrap them to
        # the panel's width instead of letting neighbouring titles run into each other.
        panel.set_title(textwrap.fill(key, 34), fontsize=7)
        panel.set_xlabel(r.labelled(x_name), fontsize=8)
    for panel in list(grid.flat)[len(keys):]:
        panel.set_visible(False)
    handles, labels = grid.flat[0].get_legend_handles_labels()
    if errors and ERROR_LABEL not in labels:  # the cross is in another panel
        handles.append(matplotlib.lines.Line2D([], [], marker=ERROR_MARKER, linestyle="", color=ERROR_COLOUR))
        labels.append(ERROR_LABEL)
    if labels and len(labels) <= 11:
        grid.flat[0].legend(handles, labels, loc="best", frameon=False, fontsize=7)
    grid[0][0].set_ylabel(what)
    note = f" (first {MAX_PANELS} of {len(panels)} panels)" if len(panels) > MAX_PANELS else ""
    return {"file": save(fig, folder, f"{r.slug}-grid.svg"), "caption": f"{what} per {', '.join(rest) or 'panel'}{note}; red markers fail"
            + ("; a black cross at the foot of a panel: the point could not be evaluated (error)." if errors else ".")}


def groups_of(r: Requirement) -> list[tuple[Any, list[Point]]]:
    by_index = {p.index: p for p in r.points}
    return [(g, [by_index[i] for i in g.points if i in by_index]) for g in r.groups]


def convergence_figure(r: Requirement, folder: Path) -> dict[str, Any] | None:
    """Log-log error against step size per group, with the least-squares slope (the order)."""
    over = (r.aggregate or {}).get("over", [])
    if len(over) != 1:
        return None
    axis = over[0]
    fig, ax = plt.subplots(figsize=(7.2, 3.8))
    fits = []
    for index, (group, members) in enumerate(groups_of(r)):
        xs = np.array([number(p.condition.get(axis)) or math.nan for p in members], dtype=float)
        ys = np.array([measure_value(p, r.measure) for p in members], dtype=float)
        keep = np.isfinite(xs) & np.isfinite(ys) & (xs > 0) & (ys > 0)
        color = f"C{index % 10}"
        ax.loglog(xs[keep], ys[keep], "o", color=color, markersize=4)
        slope = math.nan
        if keep.sum() >= 2:
            slope, intercept = np.polyfit(np.log(xs[keep]), np.log(ys[keep]), 1)
            line_x = np.array([xs[keep].min(), xs[keep].max()])
            ax.loglog(line_x, np.exp(intercept) * line_x**slope, "-", color=color, linewidth=1.2,
                      label=f"{group.label}: slope {slope:.2f}")
        fits.append({"label": group.label, "slope": None if math.isnan(slope) else float(slope),
                     "quality": group.quality, "passed": group.passed, "points": int(keep.sum())})
    ax.set_xlabel(r.labelled(axis))
    ax.set_ylabel(r.labelled(r.measure))
    ax.set_title(f"convergence of {r.measure} (threshold on the slope: {r.threshold_text})")
    if fits:
        ax.legend(loc="best", frameon=False, fontsize=8)
    return {"file": save(fig, folder, f"{r.slug}-convergence.svg"), "fits": fits,
            "caption": f"log-log {r.measure} against {axis}; the fitted slope is the observed order."}


def confidence_level(statistic: str) -> float:
    if "(" in statistic and statistic.split("(")[0] in ("ci_upper", "ci_lower"):
        try:
            return float(statistic.split("(")[1].rstrip(")"))
        except ValueError:
            pass
    return 0.95


def statistics_figure(r: Requirement, folder: Path) -> dict[str, Any] | None:
    """Box plot of the measure per group with the mean and its t-based confidence interval
    (lecture Def 4.17-4.19)."""
    level = confidence_level(r.statistic)
    data, rows = [], []
    for group, members in groups_of(r):
        values = np.array([measure_value(p, r.measure) for p in members], dtype=float)
        values = values[np.isfinite(values)]
        n = values.size
        mean = float(values.mean()) if n else math.nan
        low = high = math.nan
        if n >= 2:
            half = stats.t.ppf(0.5 + level / 2, n - 1) * values.std(ddof=1) / math.sqrt(n)
            low, high = mean - half, mean + half
        q1, median, q3 = (np.percentile(values, [25, 50, 75]).tolist() if n else [math.nan] * 3)
        data.append(values)
        rows.append({"number": len(rows) + 1, "label": group.label, "n": n, "mean": mean, "ci_low": low, "ci_high": high,
                     "q1": q1, "median": median, "q3": q3, "quality": group.quality, "passed": group.passed,
                     "margin": group.margin})
    if not data:
        return None
    fig, ax = plt.subplots(figsize=(7.2, 3.6))
    positions = list(range(1, len(data) + 1))
    ax.boxplot(data, positions=positions, widths=0.5, showfliers=True, patch_artist=True,
               boxprops={"facecolor": "#dbeafe", "edgecolor": LINE}, medianprops={"color": LINE},
               flierprops={"markeredgecolor": FAIL, "marker": "x"})
    for position, row in zip(positions, rows):
        if not math.isnan(row["ci_low"]):
            ax.errorbar(position + 0.32, row["mean"], yerr=[[row["mean"] - row["ci_low"]], [row["ci_high"] - row["mean"]]],
                        fmt="D", color="#111827", markersize=4, capsize=3, linewidth=1)
    if r.threshold is not None:
        ax.axhline(r.threshold.bound, color=BOUND, linestyle="--", linewidth=1, label=f"threshold {r.threshold_text} on {r.statistic}")
        ax.legend(loc="best", frameon=False, fontsize=8)
    labels = [row["label"] for row in rows]
    if len(rows) > 6 or max(len(label) for label in labels) > 24:
        # Many or long group names do not fit under the boxes: number them as in the table.
        ax.set_xticks(positions, [str(row["number"]) for row in rows], fontsize=8)
        ax.set_xlabel("group (numbered as in the table below)", fontsize=8)
    else:
        ax.set_xticks(positions, [literal(label) for label in labels], rotation=20, ha="right", fontsize=8)
    ax.set_ylabel(r.labelled(r.measure))
    ax.set_title(textwrap.fill(f"{r.measure} per group: box plot, mean and {level:.0%} confidence interval", 60),
                 fontsize=10)
    return {"file": save(fig, folder, f"{r.slug}-statistics.svg"), "rows": rows, "level": level,
            "caption": "boxes: quartiles, whiskers 1.5 IQR, crosses: Tukey outliers; diamonds: mean with t-based confidence interval."}


MAX_LINE_POINTS = 2000
REFERENCE = "#111827"


def reference_of(r: Requirement, report: Report) -> tuple[np.ndarray | None, np.ndarray] | None:
    """The `compare:` reference: (times or None, values). A CSV reference is read relative to
    the requirement file (its location as results.json records it, from where the run
    started); None when it cannot be found."""
    spec = (r.compare or {}).get("reference")
    if isinstance(spec, (int, float)) and not isinstance(spec, bool):
        return None, np.array([float(spec)])
    if isinstance(spec, list) and all(number(v) is not None for v in spec):
        return None, np.array([float(v) for v in spec])
    if not isinstance(spec, dict) or not isinstance(spec.get("file"), str):
        return None
    yaml_file = Path(r.location.split(":")[0]) if r.location else None
    if yaml_file is None:
        return None
    data = read_csv_columns(yaml_file.parent / spec["file"])
    if data is None:
        return None
    column = spec.get("column")
    if column not in data:
        return None
    times = next((data[k] for k in ("t", "time") if k in data), None)
    return times, data[column]


def read_csv_columns(path: Path) -> dict[str, np.ndarray] | None:
    text = read_regular_text(path)
    if text is None:
        return None
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if len(lines) < 2:
        return None
    header = [h.strip() for h in lines[0].split(",")]
    try:
        rows = [[float(cell) for cell in line.split(",")] for line in lines[1:]]
    except ValueError:
        return None
    if any(len(row) != len(header) for row in rows):
        return None
    table = np.array(rows, dtype=float)
    return {name: table[:, i] for i, name in enumerate(header)}


def is_checked(r: Requirement, name: str) -> bool:
    """Whether the requirement's measure reads the series `name` (y.x in settling_time(y.x, 0.05))."""
    measure = r.measure.replace(" ", "")
    reduced = measure.endswith(")") and "(" in measure
    return measure == name or (reduced and measure[measure.index("(") + 1:-1].split(",")[0] == name)


def outside_legend(ax: plt.Axes, least: int = 1) -> None:
    """The legend beside the axes, not on the curves (when it has at least `least` entries)."""
    if len(ax.get_legend_handles_labels()[1]) >= least:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=7, borderaxespad=0)


def draw_checks(ax: plt.Axes, r: Requirement, p: Point, name: str, columns: list[list[float]],
                report: Report) -> tuple[np.ndarray, np.ndarray] | None:
    """What the requirement checks on this series: the compare reference and its tolerance
    tube, the threshold of max_abs()/max()/min()/final() of it or of a step-response time
    (settling_time(y.x, 0.05) reads y.x), and the point's event times. Returns the compare
    reference drawn (times, values), None when there is none."""
    time = np.array(columns[0], dtype=float)
    measure = r.measure.replace(" ", "")
    checked = is_checked(r, name)
    drawn = None
    if checked and r.compare and len(columns) == 2:
        reference = reference_of(r, report)
        if reference is not None:
            ref_t, ref = reference
            if ref_t is None:
                ref_t = time if ref.size == time.size else (time[:1] if ref.size == 1 else None)
            if ref_t is not None and ref_t.size == ref.size:
                order = np.argsort(ref_t)
                ref_t, ref = ref_t[order], ref[order]
                style = {"marker": "o", "markersize": 3} if ref.size <= 20 else {}
                ax.plot(ref_t, ref, color=REFERENCE, linestyle="--", linewidth=1.1, label="reference", **style)
                drawn = (ref_t, ref)
                tube = r.compare.get("tube") if isinstance(r.compare.get("tube"), dict) else None
                if tube:
                    tol = (number(tube.get("abs")) or 0.0) + (number(tube.get("rel")) or 0.0) * np.abs(ref)
                    ax.fill_between(ref_t, ref - tol, ref + tol, color=BOUND, alpha=0.22, linewidth=0,
                                    label=f"tube (abs {tube.get('abs', 0)}, rel {tube.get('rel', 0)}"
                                          + (f", time {tube['time']} s" if tube.get("time") else "") + ")")
    if checked and r.threshold is not None and not r.aggregate and len(columns) == 2:
        bound = r.threshold.bound
        if measure.startswith("max_abs(") and r.threshold.relation == "<=":
            for level in (bound, -bound):
                ax.axhline(level, color=BOUND, linestyle="--", linewidth=1)
            ax.text(0.99, 0.98, f"threshold |{name}| {r.threshold_text}", transform=ax.transAxes, ha="right",
                    va="top", fontsize=7, color=BOUND)
        elif measure.startswith(("max(", "min(")):
            ax.axhline(bound, color=BOUND, linestyle="--", linewidth=1)
            ax.text(0.99, 0.98, f"threshold {measure.split('(')[0]} {r.threshold_text}", transform=ax.transAxes,
                    ha="right", va="top", fontsize=7, color=BOUND)
        elif measure.startswith(("settling_time(", "rise_time(", "peak_time(")) and time.size:
            # step-response times count from the series' first sample (docs/requirements-format.md)
            ax.axvline(time[0] + bound, color=BOUND, linestyle="--", linewidth=1)
            ax.text(0.99, 0.02, f"threshold {measure.split('(')[0]} {r.threshold_text}", transform=ax.transAxes,
                    ha="right", va="bottom", fontsize=7, color=BOUND)
        elif measure.startswith("final(") and time.size:
            ax.plot([time[-1]], [bound], marker="_", markersize=14, color=BOUND)
            ax.text(time[-1], bound, f" threshold on final value {r.threshold_text}", fontsize=7, color=BOUND,
                    ha="right", va="bottom")
    events = p.measures.get("event_times")
    if isinstance(events, list):
        for k, t in enumerate(e for e in events if number(e) is not None):
            ax.axvline(float(t), color="#6b7280", linestyle=":", linewidth=0.9, label="event" if k == 0 else None)
    return drawn


def tube_violation(time: np.ndarray, measured: np.ndarray, ref_t: np.ndarray, ref: np.ndarray,
                   tube: dict[str, Any]) -> dict[str, Any] | None:
    """The tube check recomputed from the series (docs/requirements-format.md, `tube`): at each
    measured sample the band is the envelope of [r - tol(r), r + tol(r)], tol(r) = abs + rel |r|,
    over the reference interpolated there and every reference sample within +-time. The
    sample farthest outside its band: time, measured value, band, violation (0 when inside)."""
    absolute, relative = number(tube.get("abs")) or 0.0, number(tube.get("rel")) or 0.0
    width = number(tube.get("time")) or 0.0
    low_all, high_all = ref - (absolute + relative * np.abs(ref)), ref + (absolute + relative * np.abs(ref))
    first, last = ref_t[0], ref_t[-1]
    slack = 1e-12 * max(1.0, abs(last))  # as framework/src/compare.cpp: 1.27 - 0.01 reaches 1.26
    inside = (time >= first - width - slack) & (time <= last + width + slack) & np.isfinite(measured)
    left = np.searchsorted(ref_t, time - width - slack, "left")
    right = np.searchsorted(ref_t, time + width + slack, "right")
    at = np.interp(time, ref_t, ref)
    spans = (time >= first) & (time <= last)  # the interpolated reference exists there
    low = np.where(spans, at - (absolute + relative * np.abs(at)), np.inf)
    high = np.where(spans, at + (absolute + relative * np.abs(at)), -np.inf)
    for k in np.nonzero(inside & (right > left))[0]:
        low[k] = min(low[k], low_all[left[k]:right[k]].min())
        high[k] = max(high[k], high_all[left[k]:right[k]].max())
    inside &= np.isfinite(low) & np.isfinite(high)
    if not inside.any():
        return None
    violation = np.where(inside, np.maximum(np.maximum(low - measured, measured - high), 0.0), -1.0)
    k = int(np.argmax(violation))
    return {"kind": "tube", "t": float(time[k]), "measured": float(measured[k]), "low": float(low[k]),
            "high": float(high[k]), "violation": float(violation[k]), "band_t": time[inside],
            "band_low": low[inside] - at[inside], "band_high": high[inside] - at[inside],
            "difference_t": time[inside], "difference": (measured - at)[inside], "at": float(at[k])}


def norm_difference(time: np.ndarray, measured: np.ndarray, ref_t: np.ndarray, ref: np.ndarray,
                    norm: str) -> dict[str, Any] | None:
    """measured - reference at the reference times (the measured series interpolated there, as
    the norm is computed), its largest magnitude and the norm recomputed."""
    slack = 1e-9 * max(1.0, abs(time[-1]))  # as framework/src/compare.cpp
    keep = (ref_t >= time[0] - slack) & (ref_t <= time[-1] + slack)
    if not keep.any():
        return None
    t = ref_t[keep]
    difference = np.interp(t, time, measured) - ref[keep]
    k = int(np.nanargmax(np.abs(difference)))
    value = math.sqrt(float(np.mean(difference**2))) if norm == "rms" else float(np.max(np.abs(difference)))
    if norm == "max_rel":
        with np.errstate(divide="ignore", invalid="ignore"):
            value = float(np.max(np.abs(difference) / np.abs(ref[keep])))
    return {"kind": "norm", "t": float(t[k]), "measured": float(difference[k] + ref[keep][k]),
            "reference": float(ref[keep][k]), "largest": float(difference[k]), "norm": norm, "value": value,
            "difference_t": t, "difference": difference}


def difference_panel(ax: plt.Axes, r: Requirement, columns: list[list[float]],
                     reference: tuple[np.ndarray, np.ndarray], name: str) -> dict[str, Any] | None:
    """measured - reference over time, with the tube's band around zero and the worst violation
    marked (or the largest difference and the norm): at the scale of the signal the curves
    overlap and a violation cannot be seen."""
    time = np.array(columns[0], dtype=float)
    measured = np.array(columns[1], dtype=float)
    ref_t, ref = reference
    if time.size < 2 or ref_t.size < 1:
        return None
    tube = r.compare_tube
    found = (tube_violation(time, measured, ref_t, ref, tube) if tube
             else norm_difference(time, measured, ref_t, ref, r.compare_norm))
    if found is None:
        return None
    unit = r.unit_of(name)
    ax.plot(decimate(found["difference_t"]), decimate(found["difference"]), color=LINE, linewidth=1.1,
            label=f"{name} − reference")
    ax.axhline(0.0, color=REFERENCE, linewidth=0.8, linestyle="--")
    if tube:
        ax.fill_between(decimate(found["band_t"]), decimate(found["band_low"]), decimate(found["band_high"]),
                        color=BOUND, alpha=0.22, linewidth=0, label="tube band")
        if found["violation"] > 0:
            t, y = found["t"], found["measured"] - found["at"]
            ax.plot([t], [y], marker="o", color=FAIL, linestyle="", markersize=6, zorder=5,
                    label=f"worst violation {found['violation']:.4g} at t = {t:.4g}")
            ax.vlines(t, found["low"] - found["at"], found["high"] - found["at"], color=FAIL, linewidth=2.2, zorder=4)
            ax.axvline(t, color=FAIL, linestyle=":", linewidth=0.9)
    else:
        t = found["t"]
        ax.plot([t], [found["largest"]], marker="o", color=FAIL if not r.threshold or r.threshold.margin(
            found["value"]) is None or r.threshold.margin(found["value"]) < 0 else PASS, linestyle="", markersize=6,
            zorder=5, label=f"largest |difference| {abs(found['largest']):.4g} at t = {t:.4g}")
        if found["norm"] == "rms":
            for level in (found["value"], -found["value"]):
                ax.axhline(level, color="#6b7280", linestyle=":", linewidth=0.9)
            ax.plot([], [], color="#6b7280", linestyle=":", label=f"± rms {found['value']:.4g}")
        if r.threshold is not None and found["norm"] in ("max_abs", "rms"):
            for level in (r.threshold.bound, -r.threshold.bound):
                ax.axhline(level, color=BOUND, linestyle="--", linewidth=1)
            ax.plot([], [], color=BOUND, linestyle="--", label=f"± threshold {r.threshold.bound:g}")
    ax.set_title(f"{name} − reference", fontsize=9)
    ax.set_xlabel(r.labelled("t", r.unit_of("t")))
    ax.set_ylabel(f"difference [{unit}]" if unit else "difference")
    outside_legend(ax)
    return found


def decimate(values: Any) -> Any:
    """Every k-th sample so a line has at most MAX_LINE_POINTS: SVG size and render time stay
    bounded for long runs; the plot is for looking, the CSV beside results.json has all."""
    step = max(1, math.ceil(len(values) / MAX_LINE_POINTS))
    return values[::step]


def series_column(series: str, column: str) -> str:
    """The name a series' column has in the requirement's units: the trajectory's columns
    are states (x.<state>), a y.<output> series has the output as its one column."""
    if series == "trajectory":
        return f"x.{column}"
    return series if series.startswith("y.") else column


def trajectory_figures(r: Requirement, report: Report, folder: Path) -> list[dict[str, Any]]:
    out = []
    # An order is a property of a whole group: one trajectory of its worst group is enough
    # (more would repeat the same curve at finer steps).
    count = 1 if r.statistic_name == "order" else MAX_TRAJECTORIES
    for rank, p in enumerate(r.worst_points(count)):
        entry: dict[str, Any] = {"point": p, "file": None}
        series = [(name, ref) for name, ref in p.measures.items() if isinstance(ref, dict) and "file" in ref]
        # The series the quality is computed from (e.g. y.chassis_acceleration in
        # rms(y.chassis_acceleration)), else the state trajectory: one or two panels, not one
        # per output.
        wanted = [(name, ref) for name, ref in series if name in r.measure]
        series = wanted or [(name, ref) for name, ref in series if name == "trajectory"] or series[:1]
        loaded = [(name, read_series(report, ref)) for name, ref in series]
        loaded = [(name, data) for name, data in loaded if data is not None]
        # A compare requirement gets a panel of measured - reference under its series.
        compared = next(((name, data) for name, data in loaded if r.compare and is_checked(r, name)
                         and len(data[0]) == 2), None)
        entry["compare"] = None
        if loaded:
            rows = len(loaded) + (1 if compared else 0)
            fig, axes = plt.subplots(rows, 1, figsize=(8.4, 2.4 * rows + 0.4), squeeze=False)
            reference = None
            for ax, (name, (names, columns)) in zip(axes.flat, loaded):
                time = decimate(columns[0])
                units = [r.unit_of(series_column(name, column_name)) for column_name in names[1:]]
                for column_name, unit, column in list(zip(names[1:], units, columns[1:]))[:8]:
                    ax.plot(time, decimate(column), linewidth=1.2, label=r.labelled(column_name, unit))
                drawn = draw_checks(ax, r, p, name, columns, report)
                if compared and name == compared[0]:
                    reference = drawn
                ax.set_title(name, fontsize=9)
                ax.set_xlabel(r.labelled(names[0], r.unit_of("t")))
                if len(names) == 2:
                    ax.set_ylabel(r.labelled(names[1], units[0]))
                outside_legend(ax, least=2)  # one curve is named by the y label
            if compared:
                last = axes.flat[rows - 1]
                found = difference_panel(last, r, compared[1][1], reference, compared[0]) if reference else None
                if found is None:
                    last.set_visible(False)
                else:
                    entry["compare"] = {k: v for k, v in found.items() if not isinstance(v, np.ndarray)}
                    if found["kind"] == "tube" and found["violation"] > 0:
                        main = axes.flat[[n for n, _ in loaded].index(compared[0])]
                        main.plot([found["t"]], [found["measured"]], marker="o", color=FAIL, linestyle="",
                                  markersize=6, zorder=5, label="worst violation")
                        main.vlines(found["t"], found["low"], found["high"], color=FAIL, linewidth=2.2, zorder=4)
                        outside_legend(main)
            entry["file"] = save(fig, folder, f"{r.slug}-point{p.index}.svg")
        entry["rank"] = rank + 1
        out.append(entry)
    return out


MC_STATISTICS = ("mean", "std", "ci_lower", "ci_upper", "median", "q05", "q95", "min", "max", "slope")
MAX_HISTOGRAMS = 6


def monte_carlo_points(r: Requirement) -> list[Point]:
    """Points whose measures carry the study's samples (component monte_carlo)."""
    return [p for p in r.points if isinstance(p.measures.get("samples"), list) and p.measures["samples"]]


def monte_carlo_figure(r: Requirement, folder: Path) -> dict[str, Any] | None:
    """Per study point: the histogram of its samples with the mean, the confidence interval of
    the mean and the 5/95% quantiles (lecture Def 4.17-4.19), and what results.json holds for it."""
    studies = monte_carlo_points(r)
    if not studies:
        return None
    rows = []
    for p in studies:
        samples = np.array([number(v) if number(v) is not None else math.nan for v in p.measures["samples"]], dtype=float)
        finite = samples[np.isfinite(samples)]
        row = {"point": p, "n": int(samples.size), "finite": int(finite.size),
               "label": ", ".join(f"{name}: {format_plain(p.condition.get(name))}" for name, _ in r.axes) or "the study"}
        for key in MC_STATISTICS:
            row[key] = number(p.measures.get(key))
        rows.append(row)
    shown = rows[:MAX_HISTOGRAMS]
    columns = min(2, len(shown))
    lines = math.ceil(len(shown) / columns)
    fig, grid = plt.subplots(lines, columns, figsize=(7.6, 2.7 * lines + 0.5), squeeze=False)
    for ax, row in zip(grid.flat, shown):
        samples = np.array([number(v) for v in row["point"].measures["samples"] if number(v) is not None], dtype=float)
        samples = samples[np.isfinite(samples)]
        if samples.size:
            ax.hist(samples, bins=min(30, max(5, int(math.sqrt(samples.size)) + 1)), color="#bfdbfe", edgecolor=LINE, linewidth=0.6)
        if row["ci_lower"] is not None and row["ci_upper"] is not None:
            ax.axvspan(row["ci_lower"], row["ci_upper"], color="#111827", alpha=0.12, label="CI of the mean")
        if row["mean"] is not None:
            ax.axvline(row["mean"], color="#111827", linewidth=1.4, label="mean")
        for key, style in (("q05", ":"), ("q95", ":")):
            if row[key] is not None:
                ax.axvline(row[key], color="#6b7280", linestyle=style, linewidth=1, label="5% / 95% quantile" if key == "q05" else None)
        if r.threshold is not None and r.measure in ("mean", "ci_lower", "ci_upper", "median", "q05", "q95", "min", "max"):
            ax.axvline(r.threshold.bound, color=BOUND, linestyle="--", linewidth=1.2, label=f"threshold on {r.measure} {r.threshold_text}")
        ax.set_title(textwrap.fill(f"point {row['point'].index}: {row['label']}", 48), fontsize=8)
        ax.set_ylabel("runs", fontsize=8)
        of = row["point"].condition.get("of")  # the simulate measure sampled, e.g. final(event_times)
        ax.set_xlabel(r.labelled(str(of)) if of else r.labelled("sampled measure", r.unit_of("samples")), fontsize=8)
    for ax in list(grid.flat)[len(shown):]:
        ax.set_visible(False)
    grid.flat[0].legend(loc="best", frameon=False, fontsize=7)
    note = f" (first {MAX_HISTOGRAMS} of {len(rows)} studies)" if len(rows) > MAX_HISTOGRAMS else ""
    return {"file": save(fig, folder, f"{r.slug}-montecarlo.svg"), "rows": rows,
            "caption": f"histogram of the sampled measure per study{note}: the mean (solid), its confidence "
                       "interval (shaded), the 5% and 95% quantiles (dotted) and the threshold where it applies to them."}
