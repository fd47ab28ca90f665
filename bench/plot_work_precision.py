#!/usr/bin/python3
"""Work-precision diagram of `ode_peers_bench --work-precision=CSV`: per matchup, the cost of
ours and of the peer against the end error they reach, in f evaluations and in CPU time.

    /usr/bin/python3 bench/plot_work_precision.py build/bench/work_precision.csv out.png

Lower and further left is better: less work for the same error. Exit 0 on success, 2 when the
CSV cannot be read (the message names file, line and column); the PNG is written whole or not
at all.
"""

from __future__ import annotations

import csv
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

COLUMNS = ("matchup", "role", "contender", "tol", "f_evals", "steps", "rejected",
           "end_error", "us_per_solve")
NUMBERS = ("tol", "f_evals", "end_error", "us_per_solve")


class InputError(Exception):
    """A CSV the diagram cannot be drawn from; the message says where and why."""


@dataclass
class Curve:
    contender: str
    end_error: list[float] = field(default_factory=list)
    f_evals: list[float] = field(default_factory=list)
    us_per_solve: list[float] = field(default_factory=list)


def read(path: Path) -> dict[str, dict[str, Curve]]:
    """Matchup -> role ("ours", "peer") -> curve, in the order the CSV lists them."""
    matchups: dict[str, dict[str, Curve]] = {}
    try:
        with path.open(newline="") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise InputError(f"{path}:1: missing column(s) {', '.join(missing)}; "
                                 f"expected {','.join(COLUMNS)}")
            for row in reader:
                line = reader.line_num
                values = {}
                for name in NUMBERS:
                    try:
                        values[name] = float(row[name])
                    except (TypeError, ValueError):
                        column = COLUMNS.index(name) + 1
                        raise InputError(f"{path}:{line}: column {column} ({name}): expected a "
                                         f"number, found {row[name]!r}") from None
                if row["role"] not in ("ours", "peer"):
                    raise InputError(f"{path}:{line}: column 2 (role): expected ours or peer, "
                                     f"found {row['role']!r}")
                if values["end_error"] <= 0.0:  # exact to round-off: no place on a log axis
                    continue
                roles = matchups.setdefault(row["matchup"], {})
                curve = roles.setdefault(row["role"], Curve(row["contender"]))
                curve.end_error.append(values["end_error"])
                curve.f_evals.append(values["f_evals"])
                curve.us_per_solve.append(values["us_per_solve"])
    except OSError as error:
        raise InputError(f"{path}: {error.strerror}") from None
    except csv.Error as error:
        raise InputError(f"{path}: {error}") from None
    if not matchups:
        raise InputError(f"{path}: no rows to plot")
    return matchups


def draw(matchups: dict[str, dict[str, Curve]], png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = len(matchups)
    figure, axes = plt.subplots(rows, 2, figsize=(11, 3.4 * rows), squeeze=False)
    styles = {"ours": dict(marker="o", linestyle="-", color="tab:blue"),
              "peer": dict(marker="s", linestyle="--", color="tab:orange")}
    for (name, roles), (work, time) in zip(matchups.items(), axes):
        for role in ("ours", "peer"):
            curve = roles.get(role)
            if curve is None:
                continue
            for axis, cost in ((work, curve.f_evals), (time, curve.us_per_solve)):
                axis.loglog(curve.end_error, cost, markersize=3.5, linewidth=1.2,
                            label=curve.contender, **styles[role])
        work.set_title(f"{name}: f evaluations", fontsize=10)
        time.set_title(f"{name}: CPU time", fontsize=10)
        work.set_ylabel("f evaluations per solve")
        time.set_ylabel("microseconds per solve")
        for axis in (work, time):
            axis.set_xlabel("end error")
            axis.invert_xaxis()  # more accurate to the right
            axis.grid(True, which="both", linewidth=0.3, alpha=0.6)
            axis.legend(fontsize=8)
    figure.suptitle("Work-precision: bench/ode_peers_bench (lower is cheaper for the same error)",
                    fontsize=11)
    figure.tight_layout(rect=(0.0, 0.0, 1.0, 0.98))  # room for the suptitle
    png.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=png.parent, prefix=png.name, suffix=".partial")
    os.close(handle)
    try:
        figure.savefig(temporary, format="png", dpi=90)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's file is private
        os.replace(temporary, png)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)
        plt.close(figure)


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(f"usage: {argv[0]} WORK_PRECISION.csv OUT.png", file=sys.stderr)
        return 2
    try:
        matchups = read(Path(argv[1]))
    except InputError as error:
        print(f"plot_work_precision: {error}", file=sys.stderr)
        return 2
    draw(matchups, Path(argv[2]))
    count = len(matchups)
    print(f"plot_work_precision: wrote {argv[2]} ({count} matchup{'' if count == 1 else 's'})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
